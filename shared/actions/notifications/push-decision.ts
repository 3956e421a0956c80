import type { JobOf } from "../../deferred/jobs.js";
import { pushNotificationTrigger, type UserMessageNotificationsData } from "../../domain/notification-data.js";

/**
 * The push half of the `message_notifications` decision (Zulip's
 * `maybe_enqueue_notifications` queueing `missedmessage_mobile_notifications`
 * work): which recipients' phones ring for a message. Pure: the decision
 * (`message-notifications.ts`) reads the inputs — who has a device
 * (`pushDeviceCounts`) and who is idle (the presence it reads for email
 * too) — and enqueues the jobs this module builds; each job is run by
 * `shared/actions/push/push-notification.ts`.
 */

/**
 * The recipients a push would notify if they were idle (the rules of
 * `pushNotificationTrigger`: DMs, personal and group mentions, alert
 * words, wildcard mentions and followed topics and streams by the user's
 * and subscription's settings, muting, never the sender): the users whose
 * device counts are worth reading.
 */
export function pushCandidateIds(datas: Iterable<UserMessageNotificationsData>): number[] {
  const ids: number[] = [];
  for (const data of datas) if (pushNotificationTrigger(data, true)) ids.push(data.userId);
  return ids;
}

/**
 * The candidates whose push depends on presence: those without
 * `enable_online_push_notifications` (Zulip pushes to an active user only
 * with it on), so the decision reads presence only for them.
 */
export function pushNeedsPresence(data: UserMessageNotificationsData): boolean {
  return !data.onlinePushEnabled;
}

/**
 * One `push_notification` job per notified user: a candidate with at least
 * one device whose {@link pushNotificationTrigger} applies with their
 * idleness.
 * @param devices user ID → registered device count (users without any are absent)
 * @param isIdle whether a user has no recent `active` presence
 */
export function pushNotificationJobs(
  message: { realm_id: number; message_id: number },
  datas: Iterable<UserMessageNotificationsData>,
  devices: ReadonlyMap<number, number>,
  isIdle: (userId: number) => boolean,
): JobOf<"push_notification">[] {
  const jobs: JobOf<"push_notification">[] = [];
  for (const data of datas) {
    if (!devices.has(data.userId)) continue;
    const trigger = pushNotificationTrigger(data, isIdle(data.userId));
    if (!trigger) continue;
    jobs.push({
      kind: "push_notification",
      payload: { realm_id: message.realm_id, user_id: data.userId, message_id: message.message_id, trigger },
    });
  }
  return jobs;
}
