import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { recordOf } from "./items.js";
import { keyFits, keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { UserTopicRecord } from "./records/user-topic.js";

/**
 * A user's stored policy for one topic (case-insensitive), or undefined for
 * "inherit". One strongly consistent GetItem.
 */
export async function getUserTopic(
  store: Store,
  userId: number,
  streamId: number,
  topic: string,
): Promise<UserTopicRecord | undefined> {
  const key = keys.userTopic(userId, streamId, topic);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  return out.Item ? recordOf<UserTopicRecord>(out.Item) : undefined;
}

/** Stores (or replaces) a user's policy for one topic. One PutItem. */
export async function putUserTopic(store: Store, record: UserTopicRecord): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.userTopic(record.user_id, record.stream_id, record.topic_name), type: "user_topic", ...record },
    }),
  );
}

/** Removes a user's policy for one topic (back to "inherit"). One DeleteItem. */
export async function deleteUserTopic(store: Store, userId: number, streamId: number, topic: string): Promise<void> {
  await store.db.send(new DeleteCommand({ TableName: store.table, Key: keys.userTopic(userId, streamId, topic) }));
}

/**
 * Every stored topic policy of a user, by stream ID then lower-cased topic:
 * one strongly consistent Query of the user's partition (one round trip per
 * 1 MB page, several thousand topics).
 */
export async function listUserTopics(store: Store, userId: number): Promise<UserTopicRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.userTopics(userId).pk },
    ConsistentRead: true,
  });
  return items.map((item) => recordOf<UserTopicRecord>(item));
}
