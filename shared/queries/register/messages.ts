import type { Deps } from "../../deps.js";
import { getMessagesByIds } from "../../data/messages.js";
import { recipientsByIds } from "../../data/recipients.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserTopicRecord } from "../../data/records/user-topic.js";
import { followedTopicKey, isVisibleAtHome } from "../../narrow/filter.js";
import {
  isMentionFlagSet,
  newestPrivateRows,
  newestUnreadRows,
  newestUserMessageId,
  starredMessageIds,
} from "../../data/user-messages.js";

/** Most unread messages `unread_msgs` describes (Zulip's MAX_UNREAD_MESSAGES); beyond, `old_unreads_missing`. */
export const MAX_UNREAD_MESSAGES = 50_000;

/** How many recent direct messages `recent_private_conversations` looks at (Zulip: 1000). */
export const RECENT_PRIVATE_MESSAGES = 1000;

type Db = Pick<Deps, "db" | "table">;

/**
 * The `message` fetch type: the deprecated `max_message_id`, the highest
 * message ID in the user's history (-1 when empty). One Query.
 */
export async function maxMessageIdInitialState(deps: Db, userId: number): Promise<Record<string, unknown>> {
  return { max_message_id: (await newestUserMessageId(deps, userId)) ?? -1 };
}

/**
 * The `starred_messages` fetch type: IDs of the user's starred messages,
 * ascending (`starredMessageIds`: one Query per page).
 */
export async function starredMessagesInitialState(deps: Db, userId: number): Promise<Record<string, unknown>> {
  return { starred_messages: await starredMessageIds(deps, userId) };
}

/**
 * `unread_msgs` (present when both `message` and `update_message_flags`
 * are fetched; Zulip's `get_raw_unread_data` + `aggregate_unread_data`):
 * the user's newest {@link MAX_UNREAD_MESSAGES} unread messages, grouped
 * into one-on-one conversations (`pms`, with the deprecated `sender_id`
 * equal to `other_user_id`), group conversations (`huddles`), stream
 * topics (`streams`) and `mentions`.
 *
 * Reads: the user's newest unread rows (`newestUnreadRows`, one Query per page of 5000), the
 * conversations' recipient records (one BatchGet per 100 conversations) and,
 * because UserMessage rows do not carry the topic, the unread stream
 * messages themselves (one BatchGet per 100 messages, in parallel).
 * `count` leaves out stream messages the home view hides (muted streams
 * unless the topic is unmuted or followed, muted topics); `streams` still
 * lists them.
 * @param streams the realm's streams (unread messages of other streams are left out)
 * @param muting the user's subscriptions and topic policies (already read by register)
 */
export async function unreadMessagesInitialState(
  deps: Db,
  userId: number,
  streams: StreamRecord[],
  muting: { subscriptions: SubscriptionRecord[]; userTopics: UserTopicRecord[] },
): Promise<Record<string, unknown>> {
  const rows = await newestUnreadRows(deps, userId, MAX_UNREAD_MESSAGES + 1);
  const missing = rows.length > MAX_UNREAD_MESSAGES;
  const kept = rows.slice(0, MAX_UNREAD_MESSAGES).sort((a, b) => a.message_id - b.message_id);

  // A stream message's row does not name its stream (a move would have to
  // rewrite it): the message item says where the message is now.
  const realmStreams = new Set(streams.map((s) => s.stream_id));
  const privateRows = kept.filter((r) => r.is_private && r.recipient_id !== undefined);
  const streamRows = kept.filter((r) => !r.is_private);
  const [recipients, messages] = await Promise.all([
    recipientsByIds(deps, privateRows.map((r) => r.recipient_id!)),
    getMessagesByIds(deps, streamRows.map((r) => r.message_id)),
  ]);

  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  for (const row of privateRows) {
    const users = recipients.get(row.recipient_id!)?.user_ids;
    if (!users) continue;
    if (users.length <= 2) {
      const other = users.find((u) => u !== userId) ?? userId;
      pms.set(other, [...(pms.get(other) ?? []), row.message_id]);
    } else {
      const key = [...users].sort((a, b) => a - b).join(",");
      huddles.set(key, [...(huddles.get(key) ?? []), row.message_id]);
    }
  }
  const topics = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  for (const row of streamRows) {
    const message = messages.get(row.message_id);
    if (!message || message.stream_id === undefined || !realmStreams.has(message.stream_id)) continue;
    const key = `${message.stream_id}\u0000${message.topic}`;
    const entry = topics.get(key) ?? { stream_id: message.stream_id, topic: message.topic, unread_message_ids: [] };
    entry.unread_message_ids.push(row.message_id);
    topics.set(key, entry);
  }
  const home = {
    mutedStreamIds: new Set(muting.subscriptions.filter((s) => s.active && s.is_muted).map((s) => s.stream_id)),
    topicPolicies: new Map(muting.userTopics.map((r) => [followedTopicKey(r.stream_id, r.topic_name), r.visibility_policy] as const)),
  };
  const shownTopics = [...topics.values()].filter((t) => isVisibleAtHome(home, t.stream_id, t.topic));
  const counted = [...pms.values(), ...huddles.values(), ...shownTopics.map((t) => t.unread_message_ids)];
  return {
    unread_msgs: {
      count: counted.reduce((n, ids) => n + ids.length, 0),
      pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...topics.values()],
      huddles: [...huddles].map(([users, ids]) => ({ user_ids_string: users, unread_message_ids: ids })),
      mentions: kept.filter((r) => isMentionFlagSet(r.flags ?? [])).map((r) => r.message_id),
      old_unreads_missing: missing,
    },
  };
}

/**
 * The `recent_private_conversations` fetch type: the conversations of the
 * user's newest {@link RECENT_PRIVATE_MESSAGES} direct messages, newest
 * first, each with its highest message ID and the other participants
 * (empty for messages to oneself). The user's newest direct-message rows
 * (`newestPrivateRows`, one Query) and the conversations' recipient records
 * (one BatchGet per 100).
 */
export async function recentPrivateConversationsInitialState(deps: Db, userId: number): Promise<Record<string, unknown>> {
  const rows = await newestPrivateRows(deps, userId, RECENT_PRIVATE_MESSAGES);
  const maxByRecipient = new Map<number, number>();
  for (const row of rows) {
    if (row.recipient_id === undefined) continue;
    maxByRecipient.set(row.recipient_id, Math.max(maxByRecipient.get(row.recipient_id) ?? 0, row.message_id));
  }
  const recipients = await recipientsByIds(deps, maxByRecipient.keys());
  const conversations = [...maxByRecipient]
    .filter(([recipientId]) => recipients.has(recipientId))
    .map(([recipientId, maxId]) => ({
      max_message_id: maxId,
      user_ids: recipients.get(recipientId)!.user_ids.filter((u) => u !== userId).sort((a, b) => a - b),
    }))
    .sort((a, b) => b.max_message_id - a.max_message_id);
  return { recent_private_conversations: conversations };
}
