import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { batchGet } from "./batch-get.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keyFits, keys } from "./keys.js";
import { queryPages } from "./query.js";
import type { EventQueueRecord, LogItem } from "./records/event-queue.js";

type Db = Store;

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
export async function putNewQueue(deps: Db, queue: EventQueueRecord, timeoutMs: number): Promise<void> {
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: queueItem(queue, timeoutMs),
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
}

/** Reads a queue (strongly consistent), or undefined. One round trip. */
export async function getQueue(deps: Db, queueId: string): Promise<EventQueueRecord | undefined> {
  const key = keys.eventQueue(queueId);
  if (!keyFits(key)) return undefined;
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
  return out.Item ? recordOf<EventQueueRecord>(out.Item) : undefined;
}

/**
 * Writes `queue` only if the stored version is still `expectedVersion`
 * (optimistic concurrency: two polls of one queue never assign the same
 * IDs twice) and the queue was not deleted meanwhile. One round trip.
 * @returns false when the queue changed or was deleted meanwhile (nothing written)
 */
export async function saveQueue(
  deps: Db,
  queue: EventQueueRecord,
  expectedVersion: number,
  timeoutMs: number,
): Promise<boolean> {
  return writeIf(
    deps,
    new PutCommand({
      TableName: deps.table,
      Item: queueItem(queue, timeoutMs),
      ConditionExpression: "attribute_exists(pk) AND #v = :v",
      ExpressionAttributeNames: { "#v": "version" },
      ExpressionAttributeValues: { ":v": expectedVersion },
    }),
  );
}

/** Deletes a queue. One round trip. */
export async function deleteQueueItem(deps: Db, queueId: string): Promise<void> {
  const key = keys.eventQueue(queueId);
  if (!keyFits(key)) return;
  await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: key }));
}

function toLogItem(item: Record<string, unknown>): LogItem {
  return {
    key: String(item.sk),
    event: item.event as LogItem["event"],
    ...(item.flags ? { flags: item.flags as string[] } : {}),
    ...(item.flags_by_user ? { flags_by_user: item.flags_by_user as Record<string, string[]> } : {}),
    ...(item.public_stream ? { public_stream: true } : {}),
    ...(item.expires_at !== undefined ? { expires_at: Number(item.expires_at) } : {}),
  };
}

/**
 * One event log as queues read it: a user's own log (`UEVT#<user_id>`) or a
 * realm's public-stream log (`REVT#<realm_id>`).
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
export function userEventLog(deps: Db, userId: number): EventLog {
  return { since: (fromKey, maxNew, seen) => readEventLog(deps, keys.userEvents(userId).pk, fromKey, maxNew, seen) };
}

/** A realm's public-stream event log (the `R` source of queues that read it). */
export function realmPublicEventLog(deps: Db, realmId: number): EventLog {
  return {
    since: (fromKey, maxNew, seen) => readEventLog(deps, keys.realmPublicEvents(realmId).pk, fromKey, maxNew, seen),
  };
}

async function readEventLog(
  deps: Db,
  pk: string,
  fromKey: string,
  maxNew: number,
  seen: (key: string) => boolean = () => false,
): Promise<LogItem[]> {
  const items: LogItem[] = [];
  const pages = queryPages(deps, {
    KeyConditionExpression: "pk = :pk AND sk >= :from",
    ExpressionAttributeValues: { ":pk": pk, ":from": fromKey },
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
  deps: Db,
  userId: number,
  realmId: number,
  refs: { s: "U" | "R"; k: string }[],
): Promise<Map<string, LogItem>> {
  const unique = [...new Map(refs.map((r) => [`${r.s}${r.k}`, r])).values()];
  const found = new Map<string, LogItem>();
  if (unique.length === 0) return found;
  const items = await batchGet(
    deps,
    unique.map((r) => (r.s === "U" ? keys.userEvent(userId, r.k) : keys.realmPublicEvent(realmId, r.k))),
  );
  for (const item of items) {
    const source = item.pk === keys.userEvents(userId).pk ? "U" : "R";
    found.set(`${source}${String(item.sk)}`, toLogItem(item));
  }
  return found;
}
