import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { recordOf } from "./items.js";
import { keyFits, keys, pad } from "./keys.js";
import { countAll, queryPages } from "./query.js";
import type { MessageRecord } from "./records/message.js";
import type { UserMessageRecord } from "./records/user-message.js";
import type { IndexName } from "./table.js";

/**
 * The ID-sorted access patterns of the table: partitions (of the base table
 * or an index) whose sort key is a padded message ID. Callers name what they
 * want to page through; which index and which key that is stays here.
 */
export type IdSource =
  /** Messages of one stream, as message items (gsi1 of messages). */
  | { of: "stream-messages"; streamId: number }
  /** Messages of one topic (case-insensitive), as message items (gsi2 of messages). */
  | { of: "topic-messages"; streamId: number; topic: string }
  /** Messages one user sent, as message items (gsi3 of messages). */
  | { of: "sender-messages"; senderId: number }
  /** Every message of a realm, as message items (gsi4 of messages). */
  | { of: "realm-messages"; realmId: number }
  /** One user's UserMessage rows (base table). */
  | { of: "user-messages"; userId: number }
  /** One user's UserMessage rows of one conversation (gsi1 of UserMessages; direct messages only, stream rows have no gsi1). */
  | { of: "recipient-user-messages"; userId: number; recipientId: number }
  /** One user's starred rows (sparse gsi2 of UserMessages). */
  | { of: "starred-user-messages"; userId: number }
  /** One user's unread rows (sparse gsi3 of UserMessages). */
  | { of: "unread-user-messages"; userId: number }
  /** One user's mentioned rows (sparse gsi4 of UserMessages). */
  | { of: "mentioned-user-messages"; userId: number }
  /** One user's private-message rows (sparse gsi5 of UserMessages). */
  | { of: "private-user-messages"; userId: number }
  /** Search postings of one term in one realm (base table). */
  | { of: "search-postings"; realmId: number; term: string };

/**
 * A range of message IDs: `gte`/`lte` inclusive bounds, absent means open.
 * Used with every ID-sorted source (all their sort keys are padded message IDs).
 */
export interface IdRange {
  gte?: number;
  lte?: number;
}

/** A page of an ID-sorted source and where the next one starts (undefined: the range is exhausted). */
export interface IdPage {
  items: Record<string, unknown>[];
  next: Record<string, unknown> | undefined;
}

interface Where {
  index?: IndexName;
  pkAttr: string;
  pk: string;
  skAttr: string;
}

const base = (pk: string): Where => ({ pkAttr: "pk", pk, skAttr: "sk" });
const gsi = (index: IndexName, pk: string): Where => ({ index, pkAttr: `${index}pk`, pk, skAttr: `${index}sk` });

/** Where an ID-sorted source lives: the index, its partition key attribute and value, its sort key attribute. */
function whereOf(source: IdSource): Where {
  switch (source.of) {
    case "stream-messages":
      return gsi("gsi1", keys.messageByStream(source.streamId).gsi1pk);
    case "topic-messages":
      return gsi("gsi2", keys.messageByTopic(source.streamId, source.topic).gsi2pk);
    case "sender-messages":
      return gsi("gsi3", keys.messageBySender(source.senderId).gsi3pk);
    case "realm-messages":
      return gsi("gsi4", keys.messageByRealm(source.realmId).gsi4pk);
    case "user-messages":
      return base(keys.userMessages(source.userId).pk);
    case "recipient-user-messages":
      return gsi("gsi1", keys.userMessageByRecipient(source.userId, source.recipientId).gsi1pk);
    case "starred-user-messages":
      return gsi("gsi2", keys.userMessageStarred(source.userId).gsi2pk);
    case "unread-user-messages":
      return gsi("gsi3", keys.userMessageUnread(source.userId).gsi3pk);
    case "mentioned-user-messages":
      return gsi("gsi4", keys.userMessageMentioned(source.userId).gsi4pk);
    case "private-user-messages":
      return gsi("gsi5", keys.userMessagePrivate(source.userId).gsi5pk);
    case "search-postings":
      return base(keys.searchTerm(source.realmId, source.term).pk);
  }
}

/** The key condition of an ID range on a source. */
function keyCondition(where: Where, range: IdRange) {
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
  return {
    IndexName: where.index,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: { "#pk": where.pkAttr, ...(condition.includes("#sk") ? { "#sk": where.skAttr } : {}) },
    ExpressionAttributeValues: values,
  };
}

/** Whether a range can hold no ID at all. */
function isEmptyRange(range: IdRange): boolean {
  return range.lte !== undefined && range.lte < Math.max(0, range.gte ?? 0);
}

/**
 * Whether a source, in a range, can hold nothing: an empty range, or a
 * partition key over DynamoDB's key size limit (a client's oversized topic
 * or term names no stored item, and asking for it would fail the Query).
 */
function holdsNothing(source: IdSource, range: IdRange): boolean {
  if (isEmptyRange(range)) return true;
  const where = whereOf(source);
  return !keyFits({ [where.pkAttr]: where.pk });
}

/**
 * One page of an ID-sorted source (one Query): the page-at-a-time reader
 * of `GET /messages`, which decides after each page whether it needs more.
 * @param range message-ID bounds
 * @param descending newest first
 * @param limit items to evaluate (DynamoDB `Limit`)
 * @param startKey `next` of the previous page
 * @param filter keeps only items whose attribute equals the value (a
 *   DynamoDB `FilterExpression`: the `limit` items are evaluated, and paid
 *   for, before it applies)
 */
export async function queryIdRange(
  store: Store,
  source: IdSource,
  range: IdRange,
  descending: boolean,
  limit: number,
  startKey?: Record<string, unknown>,
  filter?: { attribute: string; equals: string | number | boolean },
): Promise<IdPage> {
  if (holdsNothing(source, range)) return { items: [], next: undefined };
  const condition = keyCondition(whereOf(source), range);
  const out = await store.db.send(
    new QueryCommand({
      TableName: store.table,
      ...condition,
      ...(filter
        ? {
            FilterExpression: "#f = :f",
            ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, "#f": filter.attribute },
            ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ":f": filter.equals },
          }
        : {}),
      ScanIndexForward: !descending,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}

/**
 * Every item of an ID-sorted source in a range (or the first `max`), in ID
 * order, one Query per page of `pageSize` items.
 * @param options.projection attribute names to read (all when absent)
 * @param options.pageSize DynamoDB `Limit` per page @default 1000; `Infinity`
 *   for none (pages then end at DynamoDB's 1 MB)
 * @param options.max stop after this many items @default no limit
 */
export async function queryIdRangeAll(
  store: Store,
  source: IdSource,
  range: IdRange = {},
  options: { descending?: boolean; pageSize?: number; max?: number; projection?: string[] } = {},
): Promise<Record<string, unknown>[]> {
  if (holdsNothing(source, range)) return [];
  const condition = keyCondition(whereOf(source), range);
  const projection = options.projection?.map((name, i) => [`#p${i}`, name] as const);
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const pageSize = options.pageSize ?? 1000;
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(
    store,
    {
      ...condition,
      ScanIndexForward: !options.descending,
      ...(projection
        ? {
            ProjectionExpression: projection.map(([alias]) => alias).join(", "),
            ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, ...Object.fromEntries(projection) },
          }
        : {}),
    },
    (soFar) => {
      const limit = Math.min(pageSize, max - soFar);
      return Number.isFinite(limit) ? limit : undefined;
    },
  )) {
    items.push(...page);
    if (items.length >= max) break;
  }
  return items;
}

/** The message ID a page's `next` key stands at (the last item the page evaluated). */
export function idOfPageKey(source: IdSource, key: Record<string, unknown>): number {
  return Number(String(key[whereOf(source).skAttr]));
}

/**
 * Counts the items of an ID-sorted source in a range (`Select: COUNT`
 * Queries, one per 1 MB page evaluated).
 */
export async function countIdRange(store: Store, source: IdSource, range: IdRange = {}): Promise<number> {
  if (holdsNothing(source, range)) return 0;
  return countAll(store, keyCondition(whereOf(source), range));
}

/** The items of an ID-sorted source as records; what they are depends on the source. */
export type IdRecords =
  | { kind: "message"; messages: MessageRecord[] }
  | { kind: "user_message"; rows: UserMessageRecord[] }
  /** Search postings name message IDs only. */
  | { kind: "posting"; messageIds: number[] };

/** A page of an ID-sorted source as records, and where the next one starts (undefined: the range is exhausted). */
export type IdRecordPage = IdRecords & { next: Record<string, unknown> | undefined };

/**
 * {@link queryIdRange} with the page's items read as records: messages for
 * the message sources, UserMessage rows for the user-message sources,
 * message IDs for search postings. One Query.
 */
export async function queryIdRecords(
  store: Store,
  source: IdSource,
  range: IdRange,
  descending: boolean,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<IdRecordPage> {
  const { items, next } = await queryIdRange(store, source, range, descending, limit, startKey);
  switch (source.of) {
    case "stream-messages":
    case "topic-messages":
    case "sender-messages":
    case "realm-messages":
      return { kind: "message", messages: items.map((i) => recordOf<MessageRecord>(i)), next };
    case "search-postings":
      return { kind: "posting", messageIds: items.map((i) => Number(i.message_id)), next };
    case "user-messages":
    case "recipient-user-messages":
    case "starred-user-messages":
    case "unread-user-messages":
    case "mentioned-user-messages":
    case "private-user-messages":
      return { kind: "user_message", rows: items.map((i) => recordOf<UserMessageRecord>(i)), next };
  }
}
