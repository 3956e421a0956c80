import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGet } from "./batch-get.js";
import { batchWrite } from "./batch-write.js";
import type { Store } from "./client.js";
import { isConditionFailure, writeIf } from "./conditions.js";
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

function userTopicItem(record: UserTopicRecord): Record<string, unknown> {
  return { ...keys.userTopic(record.user_id, record.stream_id, record.topic_name), type: "user_topic", ...record };
}

/**
 * Adds (ADD) or removes (DELETE) user IDs in a topic's reverse item; one
 * UpdateItem, atomic. A removal never creates the item, and one that leaves
 * it empty deletes it (a second, conditional DeleteItem): an empty reverse
 * item of a topic without messages would otherwise be beyond the reach of
 * deleting its organization (docs/data-model.md, "Deleting an organization").
 */
async function changeTopicPolicyUsers(
  store: Store,
  streamId: number,
  topic: string,
  op: "ADD" | "DELETE",
  userIds: number[],
): Promise<void> {
  const key = keys.topicPolicyUsers(streamId, topic);
  if (userIds.length === 0 || !keyFits(key)) return;
  if (op === "DELETE") {
    const out = await updateIfExists(store, key, userIds);
    if (out && out.user_ids === undefined) {
      await writeIf(
        store,
        new DeleteCommand({ TableName: store.table, Key: key, ConditionExpression: "attribute_not_exists(user_ids)" }),
      );
    }
    return;
  }
  await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: key,
      UpdateExpression: "SET #t = :t ADD user_ids :ids",
      ExpressionAttributeNames: { "#t": "type" },
      ExpressionAttributeValues: { ":ids": new Set(userIds), ":t": "topic_policy_users" },
    }),
  );
}

/** Removes user IDs from an existing reverse item; returns the item after, or undefined when there was none. */
async function updateIfExists(
  store: Store,
  key: Record<string, string>,
  userIds: number[],
): Promise<Record<string, unknown> | undefined> {
  try {
    const out = await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: key,
        UpdateExpression: "DELETE user_ids :ids",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":ids": new Set(userIds) },
        ReturnValues: "ALL_NEW",
      }),
    );
    return out.Attributes;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

/**
 * Stores (or replaces) a user's policy for one topic and adds the user to
 * the topic's reverse item: one PutItem and one UpdateItem, in parallel.
 */
export async function putUserTopic(store: Store, record: UserTopicRecord): Promise<void> {
  await Promise.all([
    store.db.send(new PutCommand({ TableName: store.table, Item: userTopicItem(record) })),
    changeTopicPolicyUsers(store, record.stream_id, record.topic_name, "ADD", [record.user_id]),
  ]);
}

/**
 * Removes a user's policy for one topic (back to "inherit") and the user
 * from the topic's reverse item: one DeleteItem and one UpdateItem, in parallel.
 */
export async function deleteUserTopic(store: Store, userId: number, streamId: number, topic: string): Promise<void> {
  await Promise.all([
    store.db.send(new DeleteCommand({ TableName: store.table, Key: keys.userTopic(userId, streamId, topic) })),
    changeTopicPolicyUsers(store, streamId, topic, "DELETE", [userId]),
  ]);
}

/**
 * The IDs of the users with a stored policy on one topic (case-insensitive),
 * from the topic's reverse item: one strongly consistent GetItem.
 */
export async function topicPolicyUserIds(store: Store, streamId: number, topic: string): Promise<number[]> {
  const key = keys.topicPolicyUsers(streamId, topic);
  if (!keyFits(key)) return [];
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  const ids = out.Item?.user_ids as Set<number> | undefined;
  return ids ? [...ids].map(Number) : [];
}

/**
 * The stored policies of the given users on one topic, by user ID: one
 * strongly consistent BatchGetItem per 100 users, in parallel.
 */
export async function userTopicsOf(
  store: Store,
  userIds: readonly number[],
  streamId: number,
  topic: string,
): Promise<Map<number, UserTopicRecord>> {
  const items = await batchGet(store, userIds.map((id) => keys.userTopic(id, streamId, topic)), true);
  return new Map(items.map((item) => { const r = recordOf<UserTopicRecord>(item); return [r.user_id, r] as const; }));
}

/**
 * Rewrites topic policies in bulk (a topic move): puts `puts`, deletes the
 * `(user, stream, topic)` policies in `deletes`, and updates the reverse
 * items of the topics touched. BatchWriteItem calls of 25 items, then one
 * UpdateItem per touched topic and operation, in parallel.
 */
export async function rewriteUserTopics(
  store: Store,
  puts: readonly UserTopicRecord[],
  deletes: readonly { user_id: number; stream_id: number; topic_name: string }[],
): Promise<void> {
  await batchWrite(store, puts.map(userTopicItem), deletes.map((d) => keys.userTopic(d.user_id, d.stream_id, d.topic_name)));
  const groups = new Map<string, { streamId: number; topic: string; op: "ADD" | "DELETE"; ids: number[] }>();
  const add = (op: "ADD" | "DELETE", r: { user_id: number; stream_id: number; topic_name: string }) => {
    const k = `${op}#${r.stream_id}#${r.topic_name.toLowerCase()}`;
    const g = groups.get(k) ?? { streamId: r.stream_id, topic: r.topic_name, op, ids: [] };
    g.ids.push(r.user_id);
    groups.set(k, g);
  };
  puts.forEach((r) => add("ADD", r));
  deletes.forEach((d) => add("DELETE", d));
  await Promise.all([...groups.values()].map((g) => changeTopicPolicyUsers(store, g.streamId, g.topic, g.op, g.ids)));
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
