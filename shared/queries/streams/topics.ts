import type { Store } from "../../data/client.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { newestReceivedMessageTopics, newestStreamMessageTopics, type MessageTopic } from "../../data/topics.js";

import { canReadStreamHistory } from "../../domain/stream-permissions.js";
import { InvalidChannelIdError } from "../../errors.js";
import { accessStream } from "../../access/stream.js";

/**
 * Topic history of a stream (`GET /users/me/{stream_id}/topics`,
 * https://zulip.com/api/get-stream-topics; Zulip's
 * `get_topic_history_for_stream`).
 *
 * There is no per-topic summary item: topics are derived from the newest
 * messages of the stream. The scan stops after {@link TOPIC_SCAN_LIMIT}
 * messages, so topics whose last message is older than that are not
 * listed; this keeps the cost bounded (about 5000 × ~100 bytes = a few
 * pages) however long the history is.
 */

/** Most recent messages examined per request; older topics are left out. */
export const TOPIC_SCAN_LIMIT = 5000;

/** One topic of the response: its name as in its newest message, and that message's ID. */
export interface TopicSummary {
  name: string;
  max_id: number;
}

/**
 * Groups (message ID, topic) pairs into topics: case-insensitively, named
 * as in their newest message, ordered by newest message first.
 * @param messages any order
 */
export function summarizeTopics(messages: MessageTopic[]): TopicSummary[] {
  const byKey = new Map<string, TopicSummary>();
  for (const m of messages) {
    const key = m.topic.toLowerCase();
    const known = byKey.get(key);
    if (!known || m.id > known.max_id) byKey.set(key, { name: m.topic, max_id: m.id });
  }
  return [...byKey.values()].sort((a, b) => b.max_id - a.max_id);
}

/**
 * The topics of a stream the user may read, newest first
 * (Zulip's `get_topic_history_for_stream`).
 *
 * Access as Zulip's `access_stream_by_id` (no administrator exemption).
 * When the user may read the stream's whole history (public streams for
 * non-guests, shared-history streams for subscribers), topics come from the
 * stream's messages; otherwise only from messages the user received (their
 * UserMessage rows for the stream's recipient, then those messages'
 * topics). Both paths examine at most {@link TOPIC_SCAN_LIMIT} messages.
 * Round trips: the stream with the caller's subscription, then one Query
 * per page (and, for received messages, one BatchGet of the user's rows per
 * 100 messages, in parallel).
 * @throws InvalidChannelIdError 400 `Invalid channel ID` for a missing, archived or invisible stream
 */
export async function fetchTopicHistoryForStream(
  deps: Store,
  realm: RealmRecord,
  user: UserRecord,
  streamId: number,
): Promise<TopicSummary[]> {
  const { stream, sub } = await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelIdError() });
  if (canReadStreamHistory(user, stream, sub)) {
    return summarizeTopics(await newestStreamMessageTopics(deps, stream.stream_id, TOPIC_SCAN_LIMIT));
  }
  return summarizeTopics(await newestReceivedMessageTopics(deps, user.user_id, stream.stream_id, TOPIC_SCAN_LIMIT));
}
