import pMap from "p-map";
import { queryAll } from "./query.js";
import { GetCommand , UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { batchGet } from "./batch-get.js";
import { batchWrite } from "./batch-write.js";
import { writeIf } from "./conditions.js";
import { recordOf, setExpression } from "./items.js";
import { keys, unpad } from "./keys.js";
import type { StreamRecord } from "./records/stream.js";
import type { SubscriptionRecord } from "./records/subscription.js";


/** Reads a user's subscription to one stream (active or not), or undefined. One round trip. */
export async function getSubscription(
  store: Store,
  userId: number,
  streamId: number,
): Promise<SubscriptionRecord | undefined> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.subscription(userId, streamId), ConsistentRead: true }),
  );
  return out.Item ? recordOf<SubscriptionRecord>(out.Item) : undefined;
}

/** Lists all of a user's subscriptions, active and inactive (one Query page per 1 MB). */
export async function listUserSubscriptions(store: Store, userId: number): Promise<SubscriptionRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.userSubscriptions(userId).pk },
    ConsistentRead: true,
  });
  return items.map((item) => recordOf<SubscriptionRecord>(item));
}

/**
 * The user IDs actively subscribed to a stream (gsi1; eventually
 * consistent, like any GSI). DynamoDB's 1 MB page limit counts whole items
 * before projection, so a page holds about 3,500 subscriptions: 10,000
 * subscribers are three sequential round trips and about 300 read units.
 * Request paths that only need to know whether an audience is small pass
 * `limit`.
 * @param limit read at most this many IDs @default all
 */
export async function listStreamSubscriberIds(store: Store, streamId: number, limit?: number): Promise<number[]> {
  const items = await queryAll(
    store,
    {
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.streamSubscribers(streamId).gsi1pk },
      ProjectionExpression: "gsi1sk",
    },
    limit,
  );
  return items.map((item) => unpad(String(item.gsi1sk)));
}

/**
 * Query calls {@link subscriberIdsOfStreams} keeps in flight: below the
 * SDK's default of 50 sockets per client, so other reads of the same
 * request do not queue behind it.
 */
const SUBSCRIBER_READ_CONCURRENCY = 32;

/**
 * The active subscribers of many streams (`POST /register` with
 * `include_subscribers`), read from whichever side has fewer partitions:
 * one Query of each stream's subscriber index (gsi1, as
 * {@link listStreamSubscriberIds}), or, when the realm has fewer users than
 * there are streams to list, one Query of each user's subscription
 * partition (keys and `gsi1pk` only: an item has the gsi1 keys exactly
 * while active; eventually consistent, as the index is). Either way at most
 * {@link SUBSCRIBER_READ_CONCURRENCY} Queries in flight, so the sequential
 * round trips are about min(streams, users) / 32 (one more per 1 MB page
 * of a large partition).
 * @param userIds every user of the realm who may be subscribed (active or not)
 * @returns stream ID → subscriber IDs ascending, for every stream asked for
 */
export async function subscriberIdsOfStreams(store: Store, streamIds: number[], userIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(streamIds.map((id) => [id, []]));
  if (streamIds.length === 0) return out;
  if (userIds.length < streamIds.length) {
    const perUser = await pMap(
      userIds,
      (userId) =>
        queryAll(store, {
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": keys.userSubscriptions(userId).pk },
          ProjectionExpression: "sk, gsi1pk",
        }),
      { concurrency: SUBSCRIBER_READ_CONCURRENCY },
    );
    userIds.forEach((userId, i) => {
      for (const item of perUser[i]!) {
        if (item.gsi1pk === undefined) continue;
        out.get(unpad(String(item.sk)))?.push(userId);
      }
    });
  } else {
    const lists = await pMap(streamIds, (id) => listStreamSubscriberIds(store, id), { concurrency: SUBSCRIBER_READ_CONCURRENCY });
    streamIds.forEach((id, i) => out.set(id, lists[i]!));
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

/**
 * The stored item of a subscription: base key in the user's partition, and
 * the gsi1 keys (the stream's subscriber list) only while active.
 */
export function subscriptionItem(sub: SubscriptionRecord): Record<string, unknown> {
  return {
    ...keys.subscription(sub.user_id, sub.stream_id),
    ...(sub.active ? keys.streamSubscribersIndex(sub.stream_id, sub.user_id) : {}),
    type: "subscription",
    ...sub,
  };
}

/**
 * Reads subscriptions by (user, stream) pairs, active or not (strongly
 * consistent BatchGetItem: one round trip per 100 pairs, all in parallel).
 * Pairs without a subscription are absent from the result.
 */
export async function getSubscriptionsByPairs(
  store: Store,
  pairs: { userId: number; streamId: number }[],
): Promise<SubscriptionRecord[]> {
  const seen = new Set<string>();
  const itemKeys: Record<string, unknown>[] = [];
  for (const { userId, streamId } of pairs) {
    const id = `${userId}:${streamId}`;
    if (seen.has(id)) continue;
    seen.add(id);
    itemKeys.push(keys.subscription(userId, streamId));
  }
  const items = await batchGet(store, itemKeys, true);
  return items.map((item) => recordOf<SubscriptionRecord>(item));
}

/**
 * Writes whole subscription records with BatchWriteItem (25 per call, in
 * parallel): used to add, reactivate and deactivate many subscriptions at
 * once. A record with `active: false` is written without gsi1 keys, which
 * removes it from the stream's subscriber list.
 *
 * Last writer wins: a property change racing with a (de)activation of the
 * same subscription may be lost, which BatchWriteItem cannot prevent (it
 * has no conditions); both are rare user-driven actions on one's own row.
 */
export async function putSubscriptions(store: Store, subs: SubscriptionRecord[]): Promise<void> {
  if (subs.length === 0) return;
  await batchWrite(store, subs.map(subscriptionItem));
}

/**
 * Sets personal properties of an active subscription. One round trip.
 * @returns false when the user is not (or no longer) subscribed (nothing written)
 */
export async function updateSubscriptionFields(
  store: Store,
  userId: number,
  streamId: number,
  fields: Partial<Omit<SubscriptionRecord, "user_id" | "stream_id" | "realm_id" | "active">>,
): Promise<boolean> {
  const { clauses, names, values } = setExpression(fields as Record<string, unknown>);
  if (clauses.length === 0) return true;
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.subscription(userId, streamId),
      UpdateExpression: `SET ${clauses.join(", ")}`,
      ConditionExpression: "#active = :true",
      ExpressionAttributeNames: { ...names, "#active": "active" },
      ExpressionAttributeValues: { ...values, ":true": true },
    }),
  );
}

/**
 * Reads a stream of a realm and one user's subscription to it (active or
 * not) together: one strongly consistent BatchGet of both items. A stream
 * of another realm is not found (its key is in the realm's partition).
 */
export async function streamWithSubscription(
  store: Store,
  realmId: number,
  streamId: number,
  userId: number,
): Promise<{ stream: StreamRecord | undefined; subscription: SubscriptionRecord | undefined }> {
  const items = await batchGet(store, [keys.stream(realmId, streamId), keys.subscription(userId, streamId)], true);
  let stream: StreamRecord | undefined;
  let subscription: SubscriptionRecord | undefined;
  for (const item of items) {
    if (item.type === "stream") stream = recordOf<StreamRecord>(item);
    else if (item.type === "subscription") subscription = recordOf<SubscriptionRecord>(item);
  }
  return { stream, subscription };
}
