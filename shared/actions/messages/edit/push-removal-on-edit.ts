import type { Deps } from "../../../deps.js";
import type { UserMessageRecord } from "../../../data/records/user-message.js";
import type { SubscriptionRecord } from "../../../data/records/subscription.js";
import type { UserTopicRecord } from "../../../data/records/user-topic.js";
import { getSubscriptionsByPairs } from "../../../data/subscriptions.js";
import { topicPolicyUserIds, userTopicsOf } from "../../../data/user-topics.js";
import { getUsersByIds } from "../../../data/users.js";
import { pushNotificationTrigger, userMessageNotificationsData } from "../../../domain/notification-data.js";
import { ACTIVE_PUSH_FLAG } from "../../../data/user-messages.js";

/**
 * Edits that take away what notified (Zulip's
 * `do_update_mobile_push_notification`): when new content of a stream
 * message no longer mentions someone whose phone shows the message, the
 * notification goes — unless another trigger still applies (a wildcard or
 * alert word left, the stream's or followed topic's push notifications).
 * Direct messages notify whatever their content, so they keep theirs.
 */

/** Flags whose loss may end a notification's reason. */
const NOTIFYING_FLAGS: readonly string[] = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "has_alert_word"];

/** Whether an edit that turns `before` into `after` may take away the reason of the row's notification on the phone. */
export function mayLoseNotification(before: readonly string[], after: readonly string[]): boolean {
  return before.includes(ACTIVE_PUSH_FLAG) && NOTIFYING_FLAGS.some((f) => before.includes(f) && !after.includes(f));
}

/**
 * The users whose notification of an edited stream message goes: of the
 * rows that {@link mayLoseNotification}, those for whom no push trigger
 * applies to the flags after the edit (Zulip's `get_push_notification_trigger`
 * with the user taken as idle). Rows rarely qualify, and only then are the
 * users, their subscriptions and the topic's policies read (one round trip,
 * two with stored topic policies); otherwise nothing is read.
 * @param message the message after the edit (its stream and new topic)
 * @param rows the recipients' rows as read before the edit
 * @param flagsAfter a row's flags after the edit
 * @returns user IDs
 */
export async function editPushRemovalUserIds(
  deps: Deps,
  realmId: number,
  message: { sender_id: number; stream_id: number; topic: string },
  rows: Iterable<UserMessageRecord>,
  flagsAfter: (row: UserMessageRecord) => string[],
): Promise<Set<number>> {
  const candidates = new Map<number, string[]>();
  for (const row of rows) {
    const after = flagsAfter(row);
    if (mayLoseNotification(row.flags, after)) candidates.set(row.user_id, after);
  }
  const out = new Set<number>();
  if (candidates.size === 0) return out;
  const ids = [...candidates.keys()];
  const [users, subs, policies] = await Promise.all([
    getUsersByIds(deps, realmId, ids, false),
    getSubscriptionsByPairs(deps, ids.map((userId) => ({ userId, streamId: message.stream_id }))),
    topicPolicyUserIds(deps, message.stream_id, message.topic).then((withPolicy) => {
      const asked = ids.filter((id) => withPolicy.includes(id));
      return asked.length > 0 ? userTopicsOf(deps, asked, message.stream_id, message.topic) : new Map<number, UserTopicRecord>();
    }),
  ]);
  const subByUser = new Map<number, SubscriptionRecord>(subs.filter((s) => s.active).map((s) => [s.user_id, s]));
  for (const [userId, flags] of candidates) {
    const user = users.get(userId);
    const data = user
      ? userMessageNotificationsData(
          { senderId: message.sender_id, isPrivate: false },
          { flags, user, subscription: subByUser.get(userId), visibilityPolicy: policies.get(userId)?.visibility_policy },
        )
      : undefined;
    if (!data || pushNotificationTrigger(data, true) === undefined) out.add(userId);
  }
  return out;
}
