import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { batchGet } from "./batch-get.js";
import { writeIf } from "./conditions.js";
import { decodeStoredEvent } from "./event-codec.js";
import { recordOf } from "./items.js";
import { keyFits, keys } from "./keys.js";
import { queryPages } from "./query.js";
import type { EventQueueRecord, LogItem } from "./records/event-queue.js";


/** Extra seconds a queue item outlives its 10-minute inactivity limit before DynamoDB TTL may delete it. */
const QUEUE_TTL_SLACK_SECONDS = 300;

function queueItem(queue: EventQueueRecord, timeoutMs: number): Record<string, unknown> {
  return {
    ...keys.eventQueue(queue.queue_id),
    ...keys.eventQueueByRealm(queue.realm_id, queue.queue_id),
    type: "event_queue",
    ...queue,
    expires_at: Math.ceil((queue.last_activity_ms + timeoutMs) / 1000) + QUEUE_TTL_SLACK_SECONDS,
  };
}

/**
 * Writes a new queue. One round trip.
 * @param timeoutMs inactivity after which the queue is gone (sets the TTL)
 */
export async function putNewQueue(store: Store, queue: EventQueueRecord, timeoutMs: number): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: queueItem(queue, timeoutMs),
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
}

/** Reads a queue (strongly consistent), or undefined. One round trip. */
export async function getQueue(store: Store, queueId: string): Promise<EventQueueRecord | undefined> {
  const key = keys.eventQueue(queueId);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  return out.Item ? recordOf<EventQueueRecord>(out.Item) : undefined;
}

/**
 * Writes `queue` only if the stored version is still `expectedVersion`
 * (optimistic concurrency: two polls of one queue never assign the same
 * IDs twice) and the queue was not deleted meanwhile. One round trip.
 * @returns false when the queue changed or was deleted meanwhile (nothing written)
 */
export async function saveQueue(
  store: Store,
  queue: EventQueueRecord,
  expectedVersion: number,
  timeoutMs: number,
): Promise<boolean> {
  return writeIf(
    store,
    new PutCommand({
      TableName: store.table,
      Item: queueItem(queue, timeoutMs),
      ConditionExpression: "attribute_exists(pk) AND #v = :v",
      ExpressionAttributeNames: { "#v": "version" },
      ExpressionAttributeValues: { ":v": expectedVersion },
    }),
  );
}

/** Deletes a queue. One round trip. */
export async function deleteQueueItem(store: Store, queueId: string): Promise<void> {
  const key = keys.eventQueue(queueId);
  if (!keyFits(key)) return;
  await store.db.send(new DeleteCommand({ TableName: store.table, Key: key }));
}

function toLogItem(item: Record<string, unknown>): LogItem {
  return {
    key: String(item.sk),
    event: decodeStoredEvent(item.event as LogItem["event"]),
    ...(item.flags ? { flags: item.flags as string[] } : {}),
    ...(item.flags_by_user ? { flags_by_user: item.flags_by_user as Record<string, string[]> } : {}),
    ...(item.public_stream ? { public_stream: true } : {}),
    ...(item.expires_at !== undefined ? { expires_at: Number(item.expires_at) } : {}),
  };
}

/**
 * One event log as queues read it: a user's own log (`UEVT#<user_id>`), a
 * realm's public-stream log (`REVT#<realm_id>`) or its stream-typing log
 * (`RTYP#<realm_id>`, filtered to the reader).
 */
export interface EventLog {
  /**
   * Reads the log from `fromKey` (inclusive) in key order, eventually
   * consistent (the readers' look-back window absorbs replication lag).
   * Items for which `seen` returns true are skipped without counting;
   * reading stops once `maxNew` other items are collected. One Query per
   * 1 MB page.
   * @param fromKey an event key (`<13-digit ms>#…`) or its time prefix
   */
  since(fromKey: string, maxNew: number, seen?: (key: string) => boolean): Promise<LogItem[]>;
}

/** A user's event log: every event addressed to them (the `U` source of a queue). */
export function userEventLog(store: Store, userId: number): EventLog {
  return { since: (fromKey, maxNew, seen) => readEventLog(store, keys.userEvents(userId).pk, fromKey, maxNew, seen) };
}

/** A realm's public-stream event log (the `R` source of queues that read it). */
export function realmPublicEventLog(store: Store, realmId: number): EventLog {
  return {
    since: (fromKey, maxNew, seen) => readEventLog(store, keys.realmPublicEvents(realmId).pk, fromKey, maxNew, seen),
  };
}

/**
 * A realm's stream-typing log (the `T` source of queues that take stream
 * typing events), as one user reads it: only the items addressed to
 * `userId` come back (a filter on the item's `user_ids`; the read units
 * count every item of the range, which holds the realm's typing of a few
 * seconds).
 */
export function realmTypingEventLog(store: Store, realmId: number, userId: number): EventLog {
  return {
    since: (fromKey, maxNew, seen) =>
      readEventLog(store, keys.realmTypingEvents(realmId).pk, fromKey, maxNew, seen, {
        FilterExpression: "contains(user_ids, :me)",
        ProjectionExpression: "sk, #event, expires_at",
        ExpressionAttributeNames: { "#event": "event" },
        ExpressionAttributeValues: { ":me": userId },
      }),
  };
}

async function readEventLog(
  store: Store,
  pk: string,
  fromKey: string,
  maxNew: number,
  seen: (key: string) => boolean = () => false,
  filter?: {
    FilterExpression: string;
    ProjectionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  },
): Promise<LogItem[]> {
  const items: LogItem[] = [];
  const pages = queryPages(store, {
    KeyConditionExpression: "pk = :pk AND sk >= :from",
    ...(filter
      ? {
          FilterExpression: filter.FilterExpression,
          ProjectionExpression: filter.ProjectionExpression,
          ExpressionAttributeNames: filter.ExpressionAttributeNames,
        }
      : {}),
    ExpressionAttributeValues: { ":pk": pk, ":from": fromKey, ...filter?.ExpressionAttributeValues },
  });
  for await (const page of pages) {
    for (const item of page) {
      if (seen(String(item.sk))) continue;
      items.push(toLogItem(item));
      if (items.length >= maxNew) return items;
    }
  }
  return items;
}

/**
 * Reads log items by source and key (re-delivery of unacknowledged events).
 * One BatchGetItem per 100 keys; items gone (TTL) are absent.
 * @returns map from `<source><key>` to the item
 */
export async function logItemsByRef(
  store: Store,
  userId: number,
  realmId: number,
  refs: { s: "U" | "R" | "T"; k: string }[],
): Promise<Map<string, LogItem>> {
  const unique = [...new Map(refs.map((r) => [`${r.s}${r.k}`, r])).values()];
  const found = new Map<string, LogItem>();
  if (unique.length === 0) return found;
  const keyOf = (r: { s: "U" | "R" | "T"; k: string }) =>
    r.s === "U" ? keys.userEvent(userId, r.k) : r.s === "R" ? keys.realmPublicEvent(realmId, r.k) : keys.realmTypingEvent(realmId, r.k);
  const items = await batchGet(store, unique.map(keyOf));
  const sourceOf = new Map<string, "U" | "R" | "T">([
    [keys.userEvents(userId).pk, "U"],
    [keys.realmPublicEvents(realmId).pk, "R"],
    [keys.realmTypingEvents(realmId).pk, "T"],
  ]);
  for (const item of items) {
    const source = sourceOf.get(String(item.pk));
    if (source === undefined) continue;
    // A typing item is re-read by key only for a queue it was delivered to, i.e. addressed to its owner.
    if (source === "T" && !(item.user_ids as number[] | undefined)?.includes(userId)) continue;
    found.set(`${source}${String(item.sk)}`, toLogItem(item));
  }
  return found;
}
