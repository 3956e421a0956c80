import { BatchGetCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { BATCH_GET_LIMIT } from "./batch-get.js";
import { queryIdRangeAll } from "./id-index.js";
import { keys } from "./keys.js";
import { retryUnprocessed } from "./retry.js";

/**
 * Topics as the message items hold them. There is no per-topic summary
 * item: a stream's topics are read off its newest messages (projected to
 * their ID and topic).
 */

/** A message's ID and topic. */
export interface MessageTopic {
  id: number;
  topic: string;
}

/**
 * The topics of a stream's newest messages, newest first: one Query per
 * page of the stream's message index (eventually consistent), the first
 * `max` messages only, each projected to its ID and topic.
 * @param max messages examined at most (the page size too)
 */
export async function newestStreamMessageTopics(store: Store, streamId: number, max: number): Promise<MessageTopic[]> {
  const items = await queryIdRangeAll(
    store,
    { of: "stream-messages", streamId },
    {},
    { descending: true, pageSize: max, max, projection: ["id", "topic"] },
  );
  return items.filter((i) => typeof i.topic === "string").map((i) => ({ id: Number(i.id), topic: String(i.topic) }));
}

/**
 * The topics of the newest messages a user received in one stream (their
 * UserMessage rows with the stream's recipient), newest first: one Query
 * per page of the user's rows of that recipient (the first `max` rows,
 * projected to the message ID), then the messages' topics with projected,
 * eventually consistent BatchGets of 100 keys, in parallel (unprocessed keys
 * retried). Messages deleted in between are left out.
 * @param max rows examined at most (the page size too)
 * @throws Error when keys stay unprocessed after 9 tries
 */
export async function newestReceivedMessageTopics(
  store: Store,
  userId: number,
  recipientId: number,
  max: number,
): Promise<MessageTopic[]> {
  const rows = await queryIdRangeAll(
    store,
    { of: "recipient-user-messages", userId, recipientId },
    {},
    { descending: true, pageSize: max, max, projection: ["message_id"] },
  );
  return topicsOfMessages(store, rows.map((r) => Number(r.message_id)));
}

/** The topics of messages by ID: projected BatchGets of 100 keys, in parallel, unprocessed keys retried. */
async function topicsOfMessages(store: Store, messageIds: number[]): Promise<MessageTopic[]> {
  const chunks: number[][] = [];
  for (let i = 0; i < messageIds.length; i += BATCH_GET_LIMIT) chunks.push(messageIds.slice(i, i + BATCH_GET_LIMIT));
  const results = await Promise.all(
    chunks.map(async (chunk) => {
      const found: MessageTopic[] = [];
      await retryUnprocessed("BatchGetItem", chunk.map((id) => keys.message(id)) as Record<string, unknown>[], async (pending) => {
        const out = await store.db.send(
          new BatchGetCommand({
            RequestItems: {
              [store.table]: {
                Keys: pending,
                ProjectionExpression: "#id, #topic",
                ExpressionAttributeNames: { "#id": "id", "#topic": "topic" },
              },
            },
          }),
        );
        for (const item of out.Responses?.[store.table] ?? []) {
          if (typeof item.topic === "string") found.push({ id: Number(item.id), topic: item.topic });
        }
        return (out.UnprocessedKeys?.[store.table]?.Keys ?? []) as Record<string, unknown>[];
      });
      return found;
    }),
  );
  return results.flat();
}
