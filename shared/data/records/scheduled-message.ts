/**
 * A message one user scheduled to be sent later (Zulip's `ScheduledMessage`
 * model, https://zulip.com/api/get-scheduled-messages), one item in the
 * user's scheduled-messages partition (`keys.scheduledMessage`). Delivered
 * messages are deleted, so every stored one is undelivered.
 */
export interface ScheduledMessageRecord {
  /** The sender, who alone sees it. */
  user_id: number;
  /** From the `scheduled_message` counter (not the ID the message gets when sent). */
  id: number;
  realm_id: number;
  /** Stored as the item attribute `message_type`. */
  type: "stream" | "private";
  /**
   * As the API shows it: `stream`: the stream ID; `private`: the other
   * participants' IDs, sorted (the sender's own ID only for a message to themselves).
   */
  to: number | number[];
  /** Stream messages only (normalized); `""` for direct messages. */
  topic: string;
  /** Normalized Markdown, and its rendering at the last check. */
  content: string;
  rendered_content: string;
  /** UNIX seconds of the delivery. */
  scheduled_delivery_timestamp: number;
  /** The sent message is marked read for the sender (resolved when scheduled). */
  read_by_sender: boolean;
  /** The client that last scheduled or edited it (Zulip's `sending_client`). */
  client_name: string;
  /** Delivery was tried and failed; stays until the user edits or deletes it. */
  failed: boolean;
  /** Why delivery failed (Zulip's `failure_message`), with `failed`. */
  failure_message?: string;
  /** 1 when created, +1 on every edit: a delivery job carries the version it was made for. */
  version: number;
  /** Milliseconds at which a delivery job claimed it (set only while it is being sent). */
  claimed_ms?: number;
}
