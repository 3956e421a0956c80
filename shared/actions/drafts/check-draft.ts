import type { Deps } from "../../deps.js";
import type { DraftRecord, DraftType } from "../../data/records/draft.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { getUsersByIds } from "../../data/users.js";
import { accessStreamById } from "../../access/stream.js";
import { apiEmail } from "../../domain/email.js";
import { effectiveUserSettings } from "../../domain/user-settings.js";
import { JsonableError } from "../../errors.js";
import { MAX_TOPIC_LENGTH, normalizeContent, TOPIC_TRUNCATION_MARK } from "../../domain/message-fields.js";

/**
 * Checking drafts as `POST /drafts` and `PATCH /drafts/{draft_id}` receive
 * them (https://zulip.com/api/create-drafts, https://zulip.com/api/edit-draft;
 * Zulip's `further_validated_draft_dict` in `zerver/actions/drafts.py`).
 */

/** Most drafts one `POST /drafts` may create. */
export const MAX_DRAFTS_PER_REQUEST = 100;

/** A draft object as the client sends it (OpenAPI `Draft` without `id`), already type-checked. */
export interface DraftInput {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  /** UNIX seconds of the last edit; the server's clock when absent. */
  timestamp?: number;
}

/** A checked draft: what is stored, without its owner and ID. */
export type CheckedDraft = Omit<DraftRecord, "user_id" | "id">;

/**
 * Zulip's `draft_endpoint` guard: the drafts endpoints refuse users whose
 * effective `enable_drafts_synchronization` setting is off.
 * @throws JsonableError 400 `User has disabled synchronizing drafts.`
 */
export function checkDraftsEnabled(realm: RealmRecord, user: UserRecord): void {
  const settings = effectiveUserSettings(user.settings ?? {});
  if (settings.enable_drafts_synchronization !== true) {
    throw new JsonableError("User has disabled synchronizing drafts.");
  }
}

/** Zulip's `truncate_topic`: over 60 characters, the first 57 and `...`. Whitespace is kept. */
function truncateDraftTopic(topic: string): string {
  const chars = Array.from(topic);
  if (chars.length <= MAX_TOPIC_LENGTH) return topic;
  return chars.slice(0, MAX_TOPIC_LENGTH - TOPIC_TRUNCATION_MARK.length).join("") + TOPIC_TRUNCATION_MARK;
}

/** The request-local checks of one draft, in Zulip's order; the addressee is checked by {@link checkDrafts}. */
function checkDraftShape(input: DraftInput, nowSeconds: number): CheckedDraft {
  const content = normalizeContent(input.content);
  const timestamp = input.timestamp ?? nowSeconds;
  if (timestamp < 0) throw new JsonableError("Timestamp must not be negative.");
  const checked: CheckedDraft = { type: "", to: [], topic: "", content, timestamp: Math.floor(timestamp) };
  if (input.type === "stream") {
    const topic = truncateDraftTopic(input.topic);
    if (topic.includes("\u0000")) throw new JsonableError("Topic must not contain null bytes");
    if (input.to.length !== 1) throw new JsonableError("Must specify exactly 1 channel ID for channel messages");
    return { ...checked, type: "stream", to: [input.to[0]!], topic };
  }
  // A direct-message draft without recipients is unaddressed, as Zulip stores it.
  if (input.type === "private" && input.to.length > 0) return { ...checked, type: "private", to: [...new Set(input.to)] };
  return checked;
}

/**
 * The users of a direct-message draft as Zulip's `Draft.to_dict` shows them:
 * the others, sorted; the user alone for a draft to themselves.
 */
function draftRecipientIds(userId: number, ids: number[]): number[] {
  const others = ids.filter((id) => id !== userId).sort((a, b) => a - b);
  return others.length > 0 ? others : [userId];
}

/**
 * Checks drafts in request order: content (Zulip's `normalize_body`:
 * trimmed, not empty, no NUL byte, over 10,000 bytes truncated), timestamp,
 * topic (truncated to 60 characters, no NUL byte); a stream draft names
 * exactly one stream the user may access (`accessStreamById`); a
 * direct-message draft names active users of the realm. Reads run in
 * parallel: one stream-and-subscription read per distinct stream, one
 * BatchGet of the named users.
 * @param nowSeconds UNIX seconds, the timestamp of drafts that carry none
 * @returns the checked drafts, in the order given
 * @throws JsonableError 400 `Message must not be empty`, `Message must not contain null bytes`,
 *   `Timestamp must not be negative.`, `Topic must not contain null bytes`,
 *   `Must specify exactly 1 channel ID for channel messages`, `Invalid user ID <id>`,
 *   `'<email>' is no longer using Zulip.`
 * @throws StreamIdDoesNotExistError for a stream the user may not access
 */
export async function checkDrafts(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  inputs: DraftInput[],
  nowSeconds: number,
): Promise<CheckedDraft[]> {
  const drafts = inputs.map((input) => checkDraftShape(input, nowSeconds));
  const streamIds = [...new Set(drafts.filter((d) => d.type === "stream").map((d) => d.to[0]!))];
  const userIds = [...new Set(drafts.filter((d) => d.type === "private").flatMap((d) => d.to))];
  const [, users] = await Promise.all([
    Promise.all(streamIds.map((id) => accessStreamById(deps, user, realm, id))),
    userIds.length > 0 ? getUsersByIds(deps, realm.id, userIds) : Promise.resolve(new Map<number, UserRecord>()),
  ]);
  for (const draft of drafts) {
    if (draft.type !== "private") continue;
    for (const id of draft.to) {
      const found = users.get(id);
      if (!found) throw new JsonableError(`Invalid user ID ${id}`);
      if (!found.is_active) throw new JsonableError(`'${apiEmail(found, realm, deps.config)}' is no longer using Zulip.`);
    }
  }
  return drafts.map((d) => (d.type === "private" ? { ...d, to: draftRecipientIds(user.user_id, d.to) } : d));
}
