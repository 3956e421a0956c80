import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { batchGet } from "./batch-get.js";
import { batchWrite } from "./batch-write.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import { updateInTransactions } from "./transact-updates.js";
import { withWriteRetries } from "./retry.js";
import { queryAll } from "./query.js";
import { countIdRange, idOfPageKey, queryIdRange, queryIdRangeAll } from "./id-index.js";
import type { MessageRecord } from "./records/message.js";
import type { UserMessageRecord } from "./records/user-message.js";

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
  "active_mobile_push_notification",
] as const;

/**
 * Stored flags clients never see or set (Zulip's `NON_API_FLAGS`):
 * `active_mobile_push_notification` marks a row whose message is on the
 * user's phone as a push notification, so that reading it sends a removal
 * (`shared/actions/push/`).
 */
export const NON_API_FLAGS: readonly string[] = ["active_mobile_push_notification"];

/** The stored flag of a row whose message is on the user's phone as a notification (see {@link NON_API_FLAGS}). */
export const ACTIVE_PUSH_FLAG = "active_mobile_push_notification";


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
 * conversation (direct messages only: a stream message's row names no
 * stream, so a move between streams rewrites no row), and the sparse flag
 * indexes set only while the flag holds (gsi2 starred, gsi3 unread, gsi4
 * mentioned, gsi5 private, gsi6 read: the message's readers). Any writer
 * that changes `flags` must rebuild the item with this function so the
 * sparse keys follow (docs/data-model.md "UserMessage").
 */
export function userMessageItem(um: UserMessageRecord): Record<string, unknown> {
  const { user_id: u, message_id: m } = um;
  const conversation = um.is_private && um.recipient_id !== undefined;
  const { recipient_id: _stream, ...rest } = um;
  return {
    ...keys.userMessage(u, m),
    ...(conversation ? keys.userMessageByRecipient(u, um.recipient_id!, m) : {}),
    ...(um.flags.includes("starred") ? keys.userMessageStarred(u, m) : {}),
    ...(um.flags.includes("read") ? keys.userMessageReader(m, u) : keys.userMessageUnread(u, m)),
    ...(isMentionFlagSet(um.flags) ? keys.userMessageMentioned(u, m) : {}),
    ...(um.is_private ? keys.userMessagePrivate(u, m) : {}),
    type: "user_message",
    ...(conversation ? um : rest),
  };
}

/** The flags a client sees: stored flags plus the legacy `wildcard_mentioned` (feature level 224). */
export function wireFlags(stored: readonly string[]): string[] {
  const out = stored.filter((f) => !NON_API_FLAGS.includes(f));
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
export async function putUserMessages(store: Store, rows: UserMessageRecord[]): Promise<void> {
  if (rows.length === 0) return;
  await batchWrite(store, rows.map(userMessageItem));
}

/**
 * Reads one user's rows for many messages (BatchGetItem, one round trip per
 * 100 IDs in parallel). Messages the user has no row for are absent.
 */
export async function getUserMessages(
  store: Store,
  userId: number,
  messageIds: number[],
): Promise<Map<number, UserMessageRecord>> {
  const unique = [...new Set(messageIds)];
  if (unique.length === 0) return new Map();
  const items = await batchGet(store, unique.map((id) => keys.userMessage(userId, id)));
  const out = new Map<number, UserMessageRecord>();
  for (const item of items) {
    const um = recordOf<UserMessageRecord>(item);
    out.set(um.message_id, um);
  }
  return out;
}

/**
 * Reads messages and one user's rows for them together: one strongly
 * consistent BatchGet of both keys per message (50 messages per call, all
 * calls in parallel), so a check sees a message and the user's row as of
 * one moment. Missing messages and rows are absent from the maps; messages
 * of every realm are returned (the caller checks the realm).
 */
export async function messagesWithRows(
  store: Store,
  userId: number,
  messageIds: number[],
): Promise<{ messages: Map<number, MessageRecord>; rows: Map<number, UserMessageRecord> }> {
  const items = await batchGet(store, messageIds.flatMap((id) => [keys.message(id), keys.userMessage(userId, id)]), true);
  const messages = new Map<number, MessageRecord>();
  const rows = new Map<number, UserMessageRecord>();
  for (const item of items) {
    if (item.type === "message") {
      const m = recordOf<MessageRecord>(item);
      messages.set(m.id, m);
    } else if (item.type === "user_message") {
      const um = recordOf<UserMessageRecord>(item);
      rows.set(um.message_id, um);
    }
  }
  return { messages, rows };
}

/** Items per Query page when a whole flag index of a user is read (DynamoDB also stops each page at 1 MB). */
const INDEX_PAGE = 5000;

/** The highest message ID among a user's rows (one Query, newest first, one item), or undefined without any. */
export async function newestUserMessageId(store: Store, userId: number): Promise<number | undefined> {
  const page = await queryIdRange(store, { of: "user-messages", userId }, {}, true, 1);
  const top = page.items[0];
  return top ? recordOf<UserMessageRecord>(top).message_id : undefined;
}

/** IDs of a user's starred messages, ascending: the sparse starred index, one Query per page of 5,000. */
export async function starredMessageIds(store: Store, userId: number): Promise<number[]> {
  const items = await queryIdRangeAll(store, { of: "starred-user-messages", userId }, {}, { pageSize: INDEX_PAGE });
  return items.map((i) => Number(i.message_id));
}

/**
 * A user's newest unread rows, newest first: the sparse unread index, one
 * Query per page of 5,000, stopping after `max` rows.
 */
export async function newestUnreadRows(store: Store, userId: number, max: number): Promise<UserMessageRecord[]> {
  const items = await queryIdRangeAll(store, { of: "unread-user-messages", userId }, {}, { descending: true, pageSize: INDEX_PAGE, max });
  return items.map((i) => recordOf<UserMessageRecord>(i));
}

/**
 * A user's newest direct-message rows, newest first: the sparse
 * private-message index, one Query per page of 5,000, stopping after `max` rows.
 */
export async function newestPrivateRows(store: Store, userId: number, max: number): Promise<UserMessageRecord[]> {
  const items = await queryIdRangeAll(store, { of: "private-user-messages", userId }, {}, { descending: true, pageSize: INDEX_PAGE, max });
  return items.map((i) => recordOf<UserMessageRecord>(i));
}

/** A page of a user's unread rows (see {@link unreadRowsPage}). */
export interface UnreadRowsPage {
  /** Rows of the page, ascending by message ID (the index is eventually consistent: some may be read already). */
  rows: UserMessageRecord[];
  /** Where the next page starts; undefined when the range is exhausted. */
  next: Record<string, unknown> | undefined;
  /** The message ID the page stopped at (its last evaluated row, filtered out or not); undefined at the end. */
  stoppedAt: number | undefined;
}

/**
 * One page of a user's unread rows after a message ID, oldest first: one
 * Query of the sparse unread index (a user's unread rows, never their read
 * history), evaluating `limit` index items. Rows do not name a stream:
 * callers that want one stream's rows read the messages.
 * @param afterId rows with a higher message ID
 * @param options.startKey `next` of the previous page
 */
export async function unreadRowsPage(
  store: Store,
  userId: number,
  afterId: number,
  limit: number,
  options: { startKey?: Record<string, unknown> } = {},
): Promise<UnreadRowsPage> {
  const source = { of: "unread-user-messages", userId } as const;
  const page = await queryIdRange(store, source, { gte: afterId + 1 }, false, limit, options.startKey);
  return {
    rows: page.items.map((i) => recordOf<UserMessageRecord>(i)),
    next: page.next,
    stoppedAt: page.next ? idOfPageKey(source, page.next) : undefined,
  };
}

/** How many unread rows a user has: `Select: COUNT` Queries of the sparse unread index. */
export async function countUnreadRows(store: Store, userId: number): Promise<number> {
  return countIdRange(store, { of: "unread-user-messages", userId });
}

/** The sparse flag-index attributes of a UserMessage (gsi2 starred, gsi3 unread, gsi4 mentioned, gsi6 read). */
const FLAG_INDEX_ATTRS = ["gsi2pk", "gsi2sk", "gsi3pk", "gsi3sk", "gsi4pk", "gsi4sk", "gsi6pk", "gsi6sk"] as const;

/** Attempts of {@link updateUserMessageFlags} (the first with the row as the caller read it). */
const FLAG_UPDATE_ATTEMPTS = 5;

/**
 * The conditioned update that moves a row from its current flags to `flags`:
 * SETs `flags` and the sparse index keys that hold, REMOVEs the others, and
 * applies only while the stored flags still equal `current.flags` (so a
 * concurrent change is never overwritten).
 */
function flagUpdateInput(table: string, current: UserMessageRecord, flags: string[]) {
  const item = userMessageItem({ ...current, flags });
  const set = ["flags = :new"];
  const remove: string[] = [];
  const values: Record<string, unknown> = { ":new": flags, ":old": current.flags };
  for (const attr of FLAG_INDEX_ATTRS) {
    if (item[attr] !== undefined) {
      set.push(`${attr} = :${attr}`);
      values[`:${attr}`] = item[attr];
    } else remove.push(attr);
  }
  return {
    TableName: table,
    Key: keys.userMessage(current.user_id, current.message_id),
    UpdateExpression: `SET ${set.join(", ")}${remove.length ? ` REMOVE ${remove.join(", ")}` : ""}`,
    ConditionExpression: "attribute_exists(pk) AND flags = :old",
    ExpressionAttributeValues: values,
  };
}

/**
 * Changes one row's flags without losing a concurrent change: an UpdateItem
 * that SETs `flags` (and SETs/REMOVEs the sparse flag-index keys so they
 * follow, see {@link userMessageItem}) on the condition that `flags` still
 * equals what was read. On a conflict the row is re-read (strongly
 * consistent) and `change` is applied again, {@link FLAG_UPDATE_ATTEMPTS}
 * attempts in all. Rows that do
 * not exist (never created, or deleted meanwhile) are never created.
 *
 * Cost: one UpdateItem; a conflict adds a GetItem and an UpdateItem.
 * @param row the row as last read
 * @param change the new flags from the current ones (return them unchanged for no write)
 * @returns the row after the change and whether it changed, or undefined when the row does not exist
 * @throws Error when every attempt lost a race (not expected in practice)
 */
export async function updateUserMessageFlags(
  store: Store,
  row: UserMessageRecord,
  change: (flags: string[]) => string[],
): Promise<{ row: UserMessageRecord; changed: boolean } | undefined> {
  let current = row;
  let attempts = 0;
  const { outcome } = await withWriteRetries(
    "updateUserMessageFlags",
    async () => {
      if (attempts++ > 0) {
        const out = await store.db.send(
          new GetCommand({ TableName: store.table, Key: keys.userMessage(row.user_id, row.message_id), ConsistentRead: true }),
        );
        if (!out.Item) return { outcome: undefined };
        current = recordOf<UserMessageRecord>(out.Item);
      }
      const flags = change([...current.flags]);
      if (flags.length === current.flags.length && flags.every((f, i) => f === current.flags[i])) {
        return { outcome: { row: current, changed: false } };
      }
      const written = await writeIf(store, new UpdateCommand(flagUpdateInput(store.table, current, flags)));
      return written ? { outcome: { row: { ...current, flags }, changed: true } } : undefined;
    },
    { maxAttempts: FLAG_UPDATE_ATTEMPTS },
  );
  return outcome;
}

/**
 * {@link updateUserMessageFlags} over many rows, batched with
 * {@link updateInTransactions}: 100 conditioned updates per
 * TransactWriteItems call, so marking 1,000 messages read is 10 round trips,
 * not 1,000. A chunk that meets a concurrent change falls back to
 * row-by-row updates, which re-read and retry.
 * @returns the rows that changed, in their new state
 */
export async function updateUserMessagesFlags(
  store: Store,
  rows: UserMessageRecord[],
  change: (row: UserMessageRecord, flags: string[]) => string[],
): Promise<UserMessageRecord[]> {
  const planned = rows
    .map((row) => ({ row, flags: change(row, [...row.flags]) }))
    .filter(({ row, flags }) => flags.length !== row.flags.length || flags.some((f, i) => f !== row.flags[i]));
  const changed: UserMessageRecord[] = [];
  const applied = await updateInTransactions(
    store,
    planned,
    ({ row, flags }) => flagUpdateInput(store.table, row, flags),
    async ({ row }) => {
      const out = await updateUserMessageFlags(store, row, (flags) => change(row, flags));
      if (out?.changed) changed.push(out.row);
      return false; // reported through `changed` with the flags actually written
    },
  );
  for (const { row, flags } of applied) changed.push({ ...row, flags });
  return changed;
}

/** Deletes rows with BatchWriteItem (25 per call, 4 in flight). Deleting a missing row is harmless. */
export async function deleteUserMessages(store: Store, rows: { user_id: number; message_id: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await batchWrite(store, [], rows.map((r) => keys.userMessage(r.user_id, r.message_id)));
}

/**
 * Reads many users' rows for one message (BatchGetItem, one round trip per
 * 100 users in parallel, eventually consistent). Users without a row are
 * absent.
 * @returns user ID → row
 */
export async function userMessageRowsOf(
  store: Store,
  messageId: number,
  userIds: readonly number[],
): Promise<Map<number, UserMessageRecord>> {
  const rows = new Map<number, UserMessageRecord>();
  for (const item of await batchGet(store, userIds.map((id) => keys.userMessage(id, messageId)))) {
    const row = recordOf<UserMessageRecord>(item);
    rows.set(row.user_id, row);
  }
  return rows;
}

/**
 * The IDs of the users whose row for a message carries the `read` flag, in
 * user-ID order: Queries of the sparse, keys-only readers index (gsi6,
 * `UMREAD#<message_id>`), one page per ~15,000 readers (1 MB of ~60-byte
 * keys). Eventually consistent, like every GSI: a flag set a moment ago may
 * be missing for a moment.
 */
export async function messageReaderIds(store: Store, messageId: number): Promise<number[]> {
  const items = await queryAll(store, {
    IndexName: "gsi6",
    KeyConditionExpression: "gsi6pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.userMessageReader(messageId).gsi6pk },
  });
  return items.map((item) => Number(item.gsi6sk));
}
