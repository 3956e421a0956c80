import type { Store } from "./client.js";
import { queryIdRangeAll } from "./id-index.js";
import { getUserMessages } from "./user-messages.js";

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
 * The topics of the newest messages of a stream a user received (has a
 * UserMessage row for), newest first: the stream's newest `max` messages
 * (see {@link newestStreamMessageTopics}), then the user's rows for them
 * (eventually consistent BatchGets of 100 keys, in parallel). A row of a
 * stream message names no stream (moves rewrite no row), so the stream's
 * message index is the way in; messages the user received before the
 * stream's newest `max` are not examined.
 * @param max messages of the stream examined at most
 * @throws Error when keys stay unprocessed after 9 tries
 */
export async function newestReceivedMessageTopics(store: Store, userId: number, streamId: number, max: number): Promise<MessageTopic[]> {
  const topics = await newestStreamMessageTopics(store, streamId, max);
  const rows = await getUserMessages(store, userId, topics.map((t) => t.id));
  return topics.filter((t) => rows.has(t.id));
}
