import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isDeepStrictEqual } from "node:util";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { updateInTransactions, type UpdateAction } from "./transact-updates.js";
import { batchGet } from "./batch-get.js";
import { batchWrite } from "./batch-write.js";
import { recordOf } from "./items.js";
import { countIdRange, queryIdRangeAll, type IdRange } from "./id-index.js";
import { keys, pad } from "./keys.js";
import { queryAll } from "./query.js";
import type { MessageRecipients, MessageRecord } from "./records/message.js";
import type { UserMessageRecord } from "./records/user-message.js";
import { userMessageItem } from "./user-messages.js";


/** The full item of a message: base key plus its index keys (stream, topic, sender, realm). */
export function messageItem(message: MessageRecord): Record<string, unknown> {
  const streamKeys =
    message.recipient_type === "stream" && message.stream_id !== undefined
      ? {
          ...keys.messageByStream(message.stream_id, message.id),
          ...keys.messageByTopic(message.stream_id, message.topic, message.id),
        }
      : {};
  return {
    ...keys.message(message.id),
    ...streamKeys,
    ...keys.messageBySender(message.sender_id, message.id),
    ...keys.messageByRealm(message.realm_id, message.id),
    type: "message",
    ...message,
  };
}

/**
 * Writes a new message item (one PutItem), with its index keys.
 * @throws ConditionalCheckFailedException when the ID is taken
 */
export async function putMessage(store: Store, message: MessageRecord): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: messageItem(message),
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
}

/** A message item rewrite (an edit or a move): the record as read, and as it should become. */
export interface MessageChange {
  before: MessageRecord;
  after: MessageRecord;
}

/**
 * The UpdateItem that turns `before` into `after`: SETs exactly the
 * attributes of the full item (index keys included) that differ and REMOVEs
 * those that go, so what other writers keep on the item — reactions above
 * all — is never overwritten. Every edit and move prepends an edit-history
 * entry, so the condition that `edit_history` still has the length that was
 * read stops two edits from interleaving (and a deleted message from coming
 * back).
 */
function messageUpdateInput(table: string, { before, after }: MessageChange): UpdateAction {
  const old = messageItem(before);
  const next = messageItem(after);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const set: string[] = [];
  const remove: string[] = [];
  let n = 0;
  for (const [attr, value] of Object.entries(next)) {
    if (value === undefined || isDeepStrictEqual(value, old[attr])) continue;
    names[`#a${n}`] = attr;
    values[`:v${n}`] = value;
    set.push(`#a${n} = :v${n}`);
    n++;
  }
  for (const attr of Object.keys(old)) {
    if (old[attr] === undefined || next[attr] !== undefined) continue;
    names[`#a${n}`] = attr;
    remove.push(`#a${n}`);
    n++;
  }
  if (set.length === 0 && remove.length === 0) {
    // Nothing differs; still a conditioned write, so the caller learns whether the message is as read.
    names["#a0"] = "id";
    values[":v0"] = before.id;
    set.push("#a0 = :v0");
  }
  const history = before.edit_history?.length ?? 0;
  values[":history"] = history;
  return {
    TableName: table,
    Key: keys.message(before.id),
    UpdateExpression: [set.length ? `SET ${set.join(", ")}` : "", remove.length ? `REMOVE ${remove.join(", ")}` : ""].join(" ").trim(),
    ConditionExpression:
      history === 0
        ? "attribute_exists(pk) AND (attribute_not_exists(edit_history) OR size(edit_history) = :history)"
        : "attribute_exists(pk) AND size(edit_history) = :history",
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * Rewrites one message item from `before` to `after` (see
 * {@link messageUpdateInput}). One UpdateItem.
 * @returns false when the message was edited, moved or deleted since `before` was read (nothing written)
 */
export async function updateMessageItem(store: Store, change: MessageChange): Promise<boolean> {
  return writeIf(store, new UpdateCommand(messageUpdateInput(store.table, change)));
}

/**
 * Replaces a message's rendering without an edit (a `rendering_only`
 * update: a thumbnail became ready), only while the rendering is still the
 * one read, so two such updates of one message never undo each other and
 * a concurrent edit's rendering is never overwritten. One UpdateItem.
 * @returns false when the rendering changed, or the message is gone, since it was read
 */
export async function updateRenderedContent(store: Store, messageId: number, before: string, after: string): Promise<boolean> {
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.message(messageId),
      UpdateExpression: "SET rendered_content = :after",
      ConditionExpression: "attribute_exists(pk) AND rendered_content = :before",
      ExpressionAttributeValues: { ":before": before, ":after": after },
    }),
  );
}

/**
 * {@link updateMessageItem} over many messages (a topic or stream move):
 * 100 per TransactWriteItems call, chunks with a conflict applied one by one.
 * @returns the changes applied; the others met a message edited, moved or deleted meanwhile
 */
export async function updateMessageItems(store: Store, changes: MessageChange[]): Promise<MessageChange[]> {
  return updateInTransactions(store, changes, (c) => messageUpdateInput(store.table, c), (c) => updateMessageItem(store, c));
}

/**
 * Deletes a message item, and with it the message from every message
 * index (stream, topic, sender, realm). One DeleteItem; deleting a missing
 * message is harmless. The recipients items and UserMessage rows stay (see
 * {@link deleteRowsAndRecipients}).
 */
export async function deleteMessageItem(store: Store, messageId: number): Promise<void> {
  await store.db.send(new DeleteCommand({ TableName: store.table, Key: keys.message(messageId) }));
}

/** Reads one message (strongly consistent), or undefined. One GetItem. */
export async function messageById(store: Store, messageId: number): Promise<MessageRecord | undefined> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.message(messageId), ConsistentRead: true }),
  );
  return out.Item ? recordOf<MessageRecord>(out.Item) : undefined;
}

/**
 * Reads many messages by ID with BatchGetItem (one round trip per 100 IDs,
 * all in parallel). Missing IDs are absent from the map.
 */
export async function getMessagesByIds(store: Store, messageIds: number[]): Promise<Map<number, MessageRecord>> {
  const unique = [...new Set(messageIds)];
  const items = await batchGet(store, unique.map((id) => keys.message(id)));
  const out = new Map<number, MessageRecord>();
  for (const item of items) {
    if (item.type !== "message") continue;
    const m = recordOf<MessageRecord>(item);
    out.set(m.id, m);
  }
  return out;
}

/** Options of {@link messagesByTopic}. */
export interface TopicMessagesOptions<K extends keyof MessageRecord> {
  /** Newest first. @default false (oldest first) */
  descending?: boolean;
  /**
   * Messages per Query (DynamoDB `Limit`); `Infinity` sets no `Limit`, so
   * each page is bounded by DynamoDB's 1 MB only. @default 1000
   */
  pageSize?: number;
  /** Stop after this many messages (the last page's `Limit` shrinks to fit). @default every message in the range */
  max?: number;
  /** Read only these attributes: the records then hold only them. @default every attribute */
  projection?: readonly K[];
}

/**
 * The messages of one stream topic (the topic index; the topic name is
 * compared case-insensitively, like Zulip's `subject__iexact`), ascending by
 * ID unless `descending`, one Query per page read one after the other:
 * O(topic size) round trips for a whole topic, one for `max` ≤ `pageSize`.
 *
 * The index is eventually consistent: a message written a moment ago (or
 * just moved into the topic) may be missing, and one just moved out may
 * still be listed.
 * @param range message-ID bounds (inclusive; absent means open)
 * @returns message records (only the `projection`'s attributes when given)
 */
export async function messagesByTopic<K extends keyof MessageRecord = keyof MessageRecord>(
  store: Store,
  streamId: number,
  topic: string,
  range: IdRange = {},
  options: TopicMessagesOptions<K> = {},
): Promise<Pick<MessageRecord, K>[]> {
  const items = await queryIdRangeAll(store, { of: "topic-messages", streamId, topic }, range, {
    descending: options.descending,
    pageSize: options.pageSize,
    max: options.max,
    projection: options.projection ? [...options.projection] : undefined,
  });
  return items.map((item) => recordOf<Pick<MessageRecord, K>>(item));
}

/**
 * Most user IDs in one recipients item. A number-set element costs at most
 * ~21 bytes, so 5,000 IDs stay near 100 KB, far below DynamoDB's 400 KB
 * item limit, and one Query page (1 MB) returns about ten chunks.
 */
export const RECIPIENTS_CHUNK_SIZE = 5000;

/** Name of the `index`-th chunk written at send time (`s` + padded index). */
export function sendRecipientsChunk(index: number): string {
  return `s${pad(index)}`;
}

/**
 * Name of the chunk that rows created after sending go to (historical rows,
 * rows added by a stream move): bucketed by user ID so that each such chunk
 * holds at most {@link RECIPIENTS_CHUNK_SIZE} IDs however many users react.
 */
export function laterRecipientsChunk(userId: number): string {
  return `u${pad(Math.floor(userId / RECIPIENTS_CHUNK_SIZE))}`;
}

/**
 * A recipients item: the IDs of users who got a UserMessage row for the
 * message (docs/data-model.md "Messages"). `user_ids` is a number set so
 * later additions and removals are single `ADD`/`DELETE` updates.
 * @param userIds at most {@link RECIPIENTS_CHUNK_SIZE}, at least one (DynamoDB has no empty sets)
 */
export function messageRecipientsItem(messageId: number, chunk: string, userIds: number[]): Record<string, unknown> {
  return {
    ...keys.messageRecipients(messageId, chunk),
    type: "message_recipients",
    message_id: messageId,
    user_ids: new Set(userIds),
  };
}

/**
 * Recipients items for a list of user IDs written at send time, split into
 * chunks of {@link RECIPIENTS_CHUNK_SIZE} starting at chunk `firstIndex`.
 */
export function sendRecipientsItems(messageId: number, userIds: number[], firstIndex = 0): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < userIds.length; i += RECIPIENTS_CHUNK_SIZE) {
    items.push(messageRecipientsItem(messageId, sendRecipientsChunk(firstIndex + i / RECIPIENTS_CHUNK_SIZE), userIds.slice(i, i + RECIPIENTS_CHUNK_SIZE)));
  }
  return items;
}

/**
 * Reads who received a message: one Query of the message's partition on the
 * `RECIPIENTS#` prefix (strongly consistent; one page holds ~10 chunks, i.e.
 * ~50,000 IDs, so one round trip for any realistic audience).
 */
export async function getMessageRecipients(store: Store, messageId: number): Promise<MessageRecipients> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.message(messageId).pk, ":prefix": keys.messageRecipientsPrefix },
    ConsistentRead: true,
  });
  const chunks = new Map<string, number[]>();
  const all = new Set<number>();
  for (const item of items) {
    const ids = [...((item.user_ids as Set<number> | undefined) ?? [])].map(Number);
    chunks.set(String(item.sk).slice(keys.messageRecipientsPrefix.length), ids);
    for (const id of ids) all.add(id);
  }
  return { userIds: [...all].sort((a, b) => a - b), chunks, found: items.length > 0 };
}

/**
 * Writes UserMessage rows of a message being sent together with its
 * recipients items for `recipientIds` (chunks from `firstChunk` on, see
 * {@link sendRecipientsItems}): one BatchWriteItem per 25 items, 4 in
 * flight, so up to 100 rows and their recipients item are one round trip.
 * Rewriting existing items is harmless (a redelivered job rewrites its own
 * chunk whole).
 * @param rows rows to write (a redelivered job leaves out those that exist)
 * @param recipientIds every user the written chunks name
 */
export async function putRowsAndRecipients(
  store: Store,
  messageId: number,
  rows: readonly UserMessageRecord[],
  recipientIds: number[],
  firstChunk = 0,
): Promise<void> {
  await batchWrite(store, [...rows.map(userMessageItem), ...sendRecipientsItems(messageId, recipientIds, firstChunk)]);
}

/**
 * Deletes the UserMessage rows of `userIds` for a deleted message and the
 * message's recipients items `chunks` (names as in
 * {@link MessageRecipients.chunks}), in one batch: one BatchWriteItem per
 * 25 keys, 4 in flight. Deleting missing items is harmless.
 */
export async function deleteRowsAndRecipients(
  store: Store,
  messageId: number,
  userIds: readonly number[],
  chunks: Iterable<string>,
): Promise<void> {
  await batchWrite(
    store,
    [],
    [...userIds.map((id) => keys.userMessage(id, messageId)), ...[...chunks].map((chunk) => keys.messageRecipients(messageId, chunk))],
  );
}

/**
 * Records that users got a UserMessage row after sending (historical rows,
 * stream moves): one UpdateItem (`ADD` to the number set) per user-ID
 * bucket, in parallel. Idempotent.
 */
export async function addMessageRecipients(store: Store, messageId: number, userIds: number[]): Promise<void> {
  const byChunk = new Map<string, number[]>();
  for (const id of userIds) {
    const chunk = laterRecipientsChunk(id);
    byChunk.set(chunk, [...(byChunk.get(chunk) ?? []), id]);
  }
  await Promise.all(
    [...byChunk.entries()].map(([chunk, ids]) =>
      store.db.send(
        new UpdateCommand({
          TableName: store.table,
          Key: keys.messageRecipients(messageId, chunk),
          UpdateExpression: "ADD user_ids :u SET #type = :t, message_id = :m",
          ExpressionAttributeNames: { "#type": "type" },
          ExpressionAttributeValues: { ":u": new Set(ids), ":t": "message_recipients", ":m": messageId },
        }),
      ),
    ),
  );
}

/**
 * Removes users from a message's recipients (their rows were deleted): one
 * UpdateItem (`DELETE` from the set) per chunk holding any of them, in
 * parallel. A set left empty disappears with its attribute (DynamoDB).
 */
export async function removeMessageRecipients(store: Store, recipients: MessageRecipients, messageId: number, userIds: number[]): Promise<void> {
  const gone = new Set(userIds);
  await Promise.all(
    [...recipients.chunks.entries()].map(([chunk, ids]) => {
      const hit = ids.filter((id) => gone.has(id));
      if (hit.length === 0) return Promise.resolve();
      return store.db.send(
        new UpdateCommand({
          TableName: store.table,
          Key: keys.messageRecipients(messageId, chunk),
          UpdateExpression: "DELETE user_ids :u",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":u": new Set(hit) },
        }),
      ).catch(() => undefined); // the item went away meanwhile (message deleted): nothing to remove
    }),
  );
}

/** How many messages a stream topic holds: `Select: COUNT` Queries of the topic index. */
export async function countTopicMessages(store: Store, streamId: number, topic: string): Promise<number> {
  return countIdRange(store, { of: "topic-messages", streamId, topic });
}
