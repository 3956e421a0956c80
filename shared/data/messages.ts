import { GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../deps.js";
import { batchGet } from "./batch-get.js";
import { recordOf } from "./items.js";
import { keys, pad } from "./keys.js";
import type { IndexName } from "./table.js";

/** One recipient of a direct message as shown in `display_recipient` (spec "Message"). */
export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

/**
 * A message as stored: everything `shared/wire/message.ts` needs to build the
 * wire object without reading anything else (sender and recipient data are
 * denormalized at send time, see docs/data-model.md "Messages").
 *
 * The item's own `type` attribute is the entity name (`message`), so the
 * Zulip message type lives in {@link MessageRecord.recipient_type}.
 */
export interface MessageRecord {
  id: number;
  realm_id: number;
  /** Zulip's message `type`: `stream` or `private`. */
  recipient_type: "stream" | "private";
  recipient_id: number;
  /** Stream messages only. */
  stream_id?: number;
  /** Topic; `""` for private messages. */
  topic: string;
  /** Stream name at send time, or the participants of a private message (sorted by ID). */
  display_recipient: string | DisplayRecipientUser[];
  /** Private messages: sorted user IDs of every participant, the sender included. */
  dm_user_ids?: number[];
  sender_id: number;
  /** The sender's API email at send time. */
  sender_email: string;
  sender_full_name: string;
  /** Organization subdomain (`sender_realm_str`). */
  sender_realm_str: string;
  /** The sender's avatar URL at send time (never null). */
  sender_avatar_url: string;
  /**
   * True when `client_gravatar` clients may compute the avatar themselves:
   * the avatar is a gravatar and the API email is the real one.
   */
  sender_gravatar: boolean;
  /** Markdown source. */
  content: string;
  rendered_content: string;
  rendered_content_version: number;
  /** UNIX seconds. */
  timestamp: number;
  /** Zulip's sending client name. */
  client: string;
  is_me_message: boolean;
  has_link: boolean;
  has_image: boolean;
  has_attachment: boolean;
  /** Users mentioned directly (not silently). */
  mentioned_user_ids: number[];
  mentioned_group_ids: number[];
  wildcard_mentioned: boolean;
  /** Reactions in their wire shape (written by the reactions actions). */
  reactions: Record<string, unknown>[];
  /** Most recent edit first; empty until edited. */
  edit_history: Record<string, unknown>[];
  /** UNIX seconds; absent until edited. */
  last_edit_timestamp?: number;
  submessages: Record<string, unknown>[];
  topic_links: { text: string; url: string }[];
}

type Db = Pick<Deps, "db" | "table">;

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

/** Writes a new message item (one round trip); fails if the ID is taken. */
export async function putMessage(deps: Db, message: MessageRecord): Promise<void> {
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: messageItem(message),
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
}

/** Reads one message (strongly consistent), or undefined. One round trip. */
export async function getMessage(deps: Db, messageId: number): Promise<MessageRecord | undefined> {
  const out = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: keys.message(messageId), ConsistentRead: true }),
  );
  return out.Item ? recordOf<MessageRecord>(out.Item) : undefined;
}

/**
 * Reads many messages by ID with BatchGetItem (one round trip per 100 IDs,
 * all in parallel). Missing IDs are absent from the map.
 */
export async function getMessagesByIds(deps: Db, messageIds: number[]): Promise<Map<number, MessageRecord>> {
  const unique = [...new Set(messageIds)];
  const items = await batchGet(deps, unique.map((id) => keys.message(id)));
  const out = new Map<number, MessageRecord>();
  for (const item of items) {
    if (item.type !== "message") continue;
    const m = recordOf<MessageRecord>(item);
    out.set(m.id, m);
  }
  return out;
}

/**
 * A range of message IDs: `gte`/`lte` inclusive bounds, absent means open.
 * Used with every ID-sorted index (all their sort keys are padded message IDs).
 */
export interface IdRange {
  gte?: number;
  lte?: number;
}

/**
 * One page of an ID-sorted access pattern: a partition (base table or a
 * GSI) whose sort key is a padded message ID. Messages by stream, topic,
 * sender and realm; UserMessages by user, recipient, flag; search postings
 * all have this shape, so one function pages them all.
 *
 * @param where `index` (undefined for the base table), the partition key attribute and value, the sort key attribute
 * @param range message-ID bounds
 * @param descending newest first
 * @param limit items to evaluate (DynamoDB `Limit`)
 * @param startKey `LastEvaluatedKey` of the previous page
 * @returns items and the key to continue from (undefined when the range is exhausted)
 */
export async function queryIdRange(
  deps: Db,
  where: { index?: IndexName; pkAttr: string; pk: string; skAttr: string },
  range: IdRange,
  descending: boolean,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: Record<string, unknown>[]; next: Record<string, unknown> | undefined }> {
  if (range.lte !== undefined && range.lte < Math.max(0, range.gte ?? 0)) return { items: [], next: undefined };
  const values: Record<string, unknown> = { ":pk": where.pk };
  let condition = "#pk = :pk";
  if (range.gte !== undefined && range.lte !== undefined) {
    condition += " AND #sk BETWEEN :lo AND :hi";
    values[":lo"] = pad(Math.max(0, range.gte));
    values[":hi"] = pad(range.lte);
  } else if (range.gte !== undefined) {
    condition += " AND #sk >= :lo";
    values[":lo"] = pad(Math.max(0, range.gte));
  } else if (range.lte !== undefined) {
    condition += " AND #sk <= :hi";
    values[":hi"] = pad(range.lte);
  }
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: where.index,
      KeyConditionExpression: condition,
      ExpressionAttributeNames: { "#pk": where.pkAttr, ...(condition.includes("#sk") ? { "#sk": where.skAttr } : {}) },
      ExpressionAttributeValues: values,
      ScanIndexForward: !descending,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}
