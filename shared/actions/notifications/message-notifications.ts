import pMap from "p-map";
import type { Deps } from "../../deps.js";
import { addPendingMissedMessage, presenceOfUsers } from "../../data/missed-messages.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserTopicRecord } from "../../data/records/user-topic.js";
import { getSubscriptionsByPairs } from "../../data/subscriptions.js";
import { topicPolicyUserIds, userTopicsOf } from "../../data/user-topics.js";
import { getUsersByIds } from "../../data/users.js";
import { pushDeviceCounts } from "../../data/push-devices.js";
import { SQS_MAX_DELAY_SECONDS } from "../../deferred/deferred-work.js";
import type { DeferredJob, JobOf } from "../../deferred/jobs.js";
import {
  emailNotificationTrigger,
  isPresenceIdle,
  userMessageNotificationsData,
  type NotificationRecipient,
  type UserMessageNotificationsData,
} from "../../domain/notification-data.js";
import { effectiveUserSettings } from "../../domain/user-settings.js";
import { mayNotify, type MessageNotificationsPayload, type RecipientRow } from "./notifications-job.js";
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS } from "../../queries/register/realm.js";
import { pushCandidateIds, pushNeedsPresence, pushNotificationJobs } from "./push-decision.js";

/**
 * Deciding who is notified of a sent message, outside the request (Zulip
 * does it in Tornado's `maybe_enqueue_notifications` from the data
 * `do_send_messages` passes along). The send path only hands over each
 * recipient's row flags — in one `message_notifications` job beside the
 * message's search-index job for audiences it writes inline, or from the
 * `write_user_messages` jobs of large audiences — and this module reads
 * what the decision needs (users, subscriptions, topic policies, presence)
 * and puts each idle notifiable user's message into their pending email
 * batch (`shared/data/missed-messages.ts`), scheduling the batch's
 * `missed_message_emails` job when it starts one, and, when mobile push
 * is configured, queues a `push_notification` job for each notifiable
 * user with a device (`push-decision.ts`). docs/notifications.md
 * ("Missed-message email", "Mobile push notifications") has the design
 * and costs.
 */

/** Runs a `message_notifications` job (see {@link doMessageNotifications}). */
export async function runMessageNotifications(deps: Deps, p: MessageNotificationsPayload): Promise<void> {
  await doMessageNotifications(deps, p, p.recipients);
}

/** Stored topic policies of the given users on one topic: the topic's reverse item, then only the users it names. */
async function topicPolicies(deps: Deps, streamId: number, topic: string, userIds: number[]): Promise<Map<number, UserTopicRecord>> {
  const withPolicy = new Set(await topicPolicyUserIds(deps, streamId, topic));
  const asked = userIds.filter((id) => withPolicy.has(id));
  return asked.length > 0 ? userTopicsOf(deps, asked, streamId, topic) : new Map();
}

/** Concurrent UpdateItem calls adding to pending batches. */
const PENDING_WRITE_CONCURRENCY = 16;

/**
 * Zulip's notifiability decision for one message's recipients (the rows'
 * flags as written), then the email side of `maybe_enqueue_notifications`:
 * each recipient whose {@link emailNotificationTrigger} applies and who is
 * idle (no `active` presence within the offline threshold) gets the
 * message added to their pending batch; a batch this starts gets its
 * `missed_message_emails` job, delayed by the user's
 * `email_notifications_batching_period_seconds` (at most SQS's 15 minutes;
 * the job waits again for longer periods).
 *
 * Push (only when `deps.pushBouncer` is configured): each recipient whose
 * `pushNotificationTrigger` would apply if idle is a push candidate;
 * their device counts are read, and each candidate with a device whose
 * trigger applies with their idleness (active users only with
 * `enable_online_push_notifications`) gets one `push_notification` job.
 *
 * Round trips: users (BatchGet, eventually consistent) beside, for stream
 * messages, the subscriptions (BatchGet) and the topic's policy item (with
 * a BatchGet of the policies it names); then, in one round, the presence
 * of those an email or a push would notify if idle (one BatchGet for
 * both) beside the push candidates' device counts (BatchGet); one
 * UpdateItem per emailed user and one SendMessageBatch per distinct delay
 * among the batches started, beside the push jobs' SendMessageBatch (all
 * in one call, 10 per request). Push adds nothing when it is not
 * configured, and 1 BatchGet (device counts, in parallel with presence)
 * and 1 SendMessageBatch (when someone is notified) when it is.
 * @param message where the message went (`stream_id`, `topic` for stream messages)
 * @param rows recipients' rows; the sender's and read ones are skipped
 * @returns the decisions, by user ID, with the email and push triggers each got (for tests)
 */
export async function doMessageNotifications(
  deps: Deps,
  message: { realm_id: number; message_id: number; sender_id: number; stream_id?: number; topic?: string },
  rows: readonly RecipientRow[],
): Promise<Map<number, NotificationDecision>> {
  const decisions = new Map<number, NotificationDecision>();
  const candidates = rows.filter((r) => mayNotify(r, message.sender_id));
  if (candidates.length === 0) return decisions;
  const ids = candidates.map((r) => r.user_id);
  const stream = message.stream_id !== undefined ? { id: message.stream_id, topic: message.topic ?? "" } : undefined;
  const [users, subs, policies] = await Promise.all([
    getUsersByIds(deps, message.realm_id, ids, false),
    stream ? getSubscriptionsByPairs(deps, ids.map((userId) => ({ userId, streamId: stream.id }))) : Promise.resolve([]),
    stream ? topicPolicies(deps, stream.id, stream.topic, ids) : Promise.resolve(new Map<number, UserTopicRecord>()),
  ]);
  const subByUser = new Map<number, SubscriptionRecord>(subs.filter((s) => s.active).map((s) => [s.user_id, s]));

  const wouldEmail: { userId: number; trigger: string }[] = [];
  for (const row of candidates) {
    const user = users.get(row.user_id);
    if (!user) continue;
    const recipient: NotificationRecipient = {
      flags: row.flags,
      user,
      subscription: subByUser.get(row.user_id),
      visibilityPolicy: policies.get(row.user_id)?.visibility_policy,
    };
    const data = userMessageNotificationsData({ senderId: message.sender_id, isPrivate: stream === undefined }, recipient);
    decisions.set(row.user_id, { data });
    // Presence is read only for those an email would notify if they were idle (Zulip's optimization too).
    const trigger = emailNotificationTrigger(data, true);
    if (trigger) wouldEmail.push({ userId: row.user_id, trigger });
  }
  const datas = [...decisions.values()].map((d) => d.data);
  const wouldPush = deps.pushBouncer ? pushCandidateIds(datas) : [];
  if (wouldEmail.length === 0 && wouldPush.length === 0) return decisions;

  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  const presenceIds = new Set(wouldEmail.map((w) => w.userId));
  for (const id of wouldPush) if (pushNeedsPresence(decisions.get(id)!.data)) presenceIds.add(id);
  const [presence, devices] = await Promise.all([
    presenceIds.size > 0 ? presenceOfUsers(deps, message.realm_id, [...presenceIds]) : Promise.resolve(new Map<number, never>()),
    wouldPush.length > 0 ? pushDeviceCounts(deps, wouldPush) : Promise.resolve(new Map<number, number>()),
  ]);
  const isIdle = (userId: number) =>
    isPresenceIdle(presence.get(userId)?.last_active_time, nowSeconds, PRESENCE_OFFLINE_THRESHOLD_SECONDS);
  const idle = wouldEmail.filter((w) => isIdle(w.userId));
  const pushJobs = pushNotificationJobs(message, datas, devices, isIdle);
  for (const job of pushJobs) decisions.get(job.payload.user_id)!.pushTrigger = job.payload.trigger;

  const emails = async () => {
    const started = await pMap(
      idle,
      async (w) => {
        decisions.get(w.userId)!.emailTrigger = w.trigger;
        const period = batchingPeriodSeconds(users.get(w.userId)!.settings);
        const entry = { realmId: message.realm_id, userId: w.userId, messageId: message.message_id, trigger: w.trigger };
        const outcome = await addPendingMissedMessage(deps, entry, nowSeconds + period);
        if (outcome === "full") deps.log.warn("missed-message batch full", { user_id: w.userId, message_id: message.message_id });
        return outcome === "new" ? { userId: w.userId, delay: Math.min(period, SQS_MAX_DELAY_SECONDS) } : undefined;
      },
      { concurrency: PENDING_WRITE_CONCURRENCY },
    );
    await enqueueBatchJobs(deps, message.realm_id, started.filter((s) => s !== undefined));
  };
  // The push jobs go out beside the email batches' writes (one SendMessageBatch per 10 jobs).
  await Promise.all([emails(), pushJobs.length > 0 ? deps.deferred.enqueue(pushJobs) : undefined]);
  return decisions;
}

/** One recipient's decision: the data, and the email and push triggers that applied (none: not notified that way). */
export interface NotificationDecision {
  data: UserMessageNotificationsData;
  emailTrigger?: string;
  pushTrigger?: string;
}

/** A user's `email_notifications_batching_period_seconds` (whole seconds, at least 1). */
export function batchingPeriodSeconds(settings: Record<string, unknown>): number {
  const value = Number(effectiveUserSettings(settings).email_notifications_batching_period_seconds);
  return Number.isFinite(value) && value >= 1 ? Math.ceil(value) : 120;
}

/** The `missed_message_emails` job of one user's batch. */
export function missedMessageEmailsJob(realmId: number, userId: number): JobOf<"missed_message_emails"> {
  return { kind: "missed_message_emails", payload: { realm_id: realmId, user_id: userId } };
}

/** Enqueues the batches' jobs, one SendMessageBatch per distinct delay (users mostly share the default period). */
async function enqueueBatchJobs(deps: Deps, realmId: number, batches: { userId: number; delay: number }[]): Promise<void> {
  const byDelay = new Map<number, DeferredJob[]>();
  for (const b of batches) {
    const jobs = byDelay.get(b.delay) ?? [];
    jobs.push(missedMessageEmailsJob(realmId, b.userId));
    byDelay.set(b.delay, jobs);
  }
  await Promise.all([...byDelay].map(([delaySeconds, jobs]) => deps.deferred.enqueue(jobs, { delaySeconds })));
}
