import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../deps.js";
import { recordOf } from "./items.js";
import { keys, unpad } from "./keys.js";

/**
 * A user's subscription to a stream as stored: base key in the user's
 * partition (`keys.subscription`), gsi1 in the stream's subscriber list
 * (`keys.streamSubscribersIndex`) while active. Unsubscribing keeps the item
 * with `active: false` and no gsi1 keys (Zulip keeps inactive
 * subscriptions: they give `unsubscribed` in `POST /register`).
 */
export interface SubscriptionRecord {
  realm_id: number;
  user_id: number;
  stream_id: number;
  active: boolean;
  /** `#rrggbb`. */
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  /** null: inherit the user's setting. */
  desktop_notifications: boolean | null;
  email_notifications: boolean | null;
  push_notifications: boolean | null;
  audible_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  /** 20 stream administrator, 50 subscriber. */
  role: number;
}

type Db = Pick<Deps, "db" | "table">;

/** Reads a user's subscription to one stream (active or not), or undefined. One round trip. */
export async function getSubscription(
  deps: Db,
  userId: number,
  streamId: number,
): Promise<SubscriptionRecord | undefined> {
  const out = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: keys.subscription(userId, streamId), ConsistentRead: true }),
  );
  return out.Item ? recordOf<SubscriptionRecord>(out.Item) : undefined;
}

/** Lists all of a user's subscriptions, active and inactive (one Query page per 1 MB). */
export async function listUserSubscriptions(deps: Db, userId: number): Promise<SubscriptionRecord[]> {
  const subs: SubscriptionRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.userSubscriptions(userId).pk },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) subs.push(recordOf<SubscriptionRecord>(item));
    start = out.LastEvaluatedKey;
  } while (start);
  return subs;
}

/**
 * The user IDs actively subscribed to a stream (gsi1; eventually
 * consistent, like any GSI). One Query page per about 50,000 subscribers.
 */
export async function listStreamSubscriberIds(deps: Db, streamId: number): Promise<number[]> {
  const ids: number[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        IndexName: "gsi1",
        KeyConditionExpression: "gsi1pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.streamSubscribers(streamId).gsi1pk },
        ProjectionExpression: "gsi1sk",
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) ids.push(unpad(String(item.gsi1sk)));
    start = out.LastEvaluatedKey;
  } while (start);
  return ids;
}
