import type { Deps } from "../deps.js";
import { batchGet } from "./batch-get.js";
import { batchWrite } from "./batch-write.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";

/**
 * Flags a UserMessage may carry, as stored. `wildcard_mentioned` is
 * derived on the wire from `stream_wildcard_mentioned` /
 * `topic_wildcard_mentioned` (Zulip feature level 224), see
 * {@link wireFlags}.
 */
export const STORED_FLAGS = [
  "read",
  "starred",
  "collapsed",
  "mentioned",
  "stream_wildcard_mentioned",
  "topic_wildcard_mentioned",
  "has_alert_word",
  "historical",
] as const;

/**
 * One user's row for one message (Zulip's UserMessage): the user received
 * the message (or it entered their history) and these are their flags.
 */
export interface UserMessageRecord {
  user_id: number;
  message_id: number;
  /** The message's recipient (a stream's or a conversation's), for gsi1. */
  recipient_id: number;
  /** Private message: puts the row in the user's `is:dm` index (gsi5). */
  is_private: boolean;
  /** Stored flag names (see {@link STORED_FLAGS}), no duplicates. */
  flags: string[];
}

type Db = Pick<Deps, "db" | "table">;

/** Whether a flag set counts as a mention for `is:mentioned` (direct, wildcard or group). */
export function isMentionFlagSet(flags: readonly string[]): boolean {
  return (
    flags.includes("mentioned") ||
    flags.includes("stream_wildcard_mentioned") ||
    flags.includes("topic_wildcard_mentioned")
  );
}

/**
 * The full item of a UserMessage: base key in the user's partition, gsi1 by
 * recipient, and the sparse flag indexes set only while the flag holds
 * (gsi2 starred, gsi3 unread, gsi4 mentioned, gsi5 private). Any writer
 * that changes `flags` must rebuild the item with this function so the
 * sparse keys follow (docs/data-model.md "UserMessage").
 */
export function userMessageItem(um: UserMessageRecord): Record<string, unknown> {
  const { user_id: u, message_id: m } = um;
  return {
    ...keys.userMessage(u, m),
    ...keys.userMessageByRecipient(u, um.recipient_id, m),
    ...(um.flags.includes("starred") ? keys.userMessageStarred(u, m) : {}),
    ...(um.flags.includes("read") ? {} : keys.userMessageUnread(u, m)),
    ...(isMentionFlagSet(um.flags) ? keys.userMessageMentioned(u, m) : {}),
    ...(um.is_private ? keys.userMessagePrivate(u, m) : {}),
    type: "user_message",
    ...um,
  };
}

/** The flags a client sees: stored flags plus the legacy `wildcard_mentioned` (feature level 224). */
export function wireFlags(stored: readonly string[]): string[] {
  const out = [...stored];
  if (
    (stored.includes("stream_wildcard_mentioned") || stored.includes("topic_wildcard_mentioned")) &&
    !stored.includes("wildcard_mentioned")
  ) {
    out.push("wildcard_mentioned");
  }
  return out;
}

/**
 * Writes UserMessage rows with BatchWriteItem (25 per call, 4 calls in
 * flight): one round trip for up to 100 rows.
 */
export async function putUserMessages(deps: Db, rows: UserMessageRecord[]): Promise<void> {
  if (rows.length === 0) return;
  await batchWrite(deps, rows.map(userMessageItem));
}

/**
 * Reads one user's rows for many messages (BatchGetItem, one round trip per
 * 100 IDs in parallel). Messages the user has no row for are absent.
 */
export async function getUserMessages(
  deps: Db,
  userId: number,
  messageIds: number[],
): Promise<Map<number, UserMessageRecord>> {
  const unique = [...new Set(messageIds)];
  if (unique.length === 0) return new Map();
  const items = await batchGet(deps, unique.map((id) => keys.userMessage(userId, id)));
  const out = new Map<number, UserMessageRecord>();
  for (const item of items) {
    const um = recordOf<UserMessageRecord>(item);
    out.set(um.message_id, um);
  }
  return out;
}
