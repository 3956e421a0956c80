/** What a draft is addressed to: unaddressed (`""`), a stream, or users (https://zulip.com/api/get-drafts). */
export type DraftType = "" | "stream" | "private";

/**
 * A message draft of one user (Zulip's `Draft` model), one item in the
 * user's drafts partition (`keys.draft`). Shaped as the API's `Draft`
 * object plus its owner.
 */
export interface DraftRecord {
  /** The user who owns (and alone sees) the draft. */
  user_id: number;
  /** The draft's ID, from the `draft` counter. */
  id: number;
  /** Stored as the item attribute `draft_type`. */
  type: DraftType;
  /**
   * `stream`: the one stream ID. `private`: the other users' IDs, sorted
   * (the user's own ID only for a draft to themselves). Unaddressed: empty.
   */
  to: number[];
  /** Stream drafts only; empty otherwise. At most 60 characters. */
  topic: string;
  /** Never empty, at most 10,000 UTF-8 bytes. */
  content: string;
  /** UNIX seconds of the last edit. */
  timestamp: number;
}
