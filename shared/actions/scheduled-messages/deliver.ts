import type { Deps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import type { ScheduledMessageRecord } from "../../data/records/scheduled-message.js";
import {
  claimScheduledMessage,
  getScheduledMessage,
  markScheduledMessageFailed,
  removeDeliveredScheduledMessage,
} from "../../data/scheduled-messages.js";
import { isSystemBot, userAndRealm } from "../../data/users.js";
import { JsonableError, RealmDeactivatedError, UserDeactivatedError } from "../../errors.js";
import { sendDirectNotice } from "../messages/notification-bot.js";
import { checkSendMessage } from "../messages/send-message.js";
import { enqueueScheduledDelivery } from "./enqueue.js";
import { notifyScheduledMessageRemoved, notifyScheduledMessageUpdated } from "./notify.js";

/**
 * Delivering scheduled messages (Zulip's `try_deliver_one_scheduled_message`
 * and `send_scheduled_message` in `zerver/actions/scheduled_messages.py`)
 * without a polling loop: every create or edit enqueues one
 * `send_scheduled_message` job for the message's version, delayed by SQS
 * until the delivery time or for its 15-minute maximum. When the job
 * arrives it reads the item again: gone (deleted or sent), at another
 * version (edited: that edit's job takes over), failed or claimed → it
 * stops; not yet due → it enqueues itself again; due → it claims the item
 * with a conditional write (so a duplicate SQS delivery cannot send twice)
 * and sends it through `checkSendMessage`, the code of `POST /messages`,
 * as the sender at that time: permissions are checked then, not when it was
 * scheduled. docs/events.md ("Scheduled messages") has the design,
 * docs/performance.md its cost.
 */

/** Zulip's `SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES`: a message more than 10 minutes late fails instead of being sent. */
export const SCHEDULED_MESSAGE_LATE_CUTOFF_MS = 10 * 60_000;

/**
 * After this long a claim is taken to belong to a delivery that died (the
 * worker Lambda's timeout is 2 minutes): the message is marked failed
 * rather than sent, since the first attempt may have sent it.
 */
export const STALE_CLAIM_MS = 5 * 60_000;

/**
 * The `send_scheduled_message` job's runner (see the module comment). One
 * GetItem; when due, the claim (one conditional UpdateItem), the realm and
 * sender (one BatchGetItem), the send (`checkSendMessage`'s round trips),
 * the item's deletion and the `remove` event. A failure marks it `failed`,
 * sends `update` to the sender's clients and a Notification Bot direct
 * message saying why (not when the organization or the sender was
 * deactivated, nor to a system bot), and keeps it.
 */
export async function runSendScheduledMessage(deps: Deps, job: JobPayload<"send_scheduled_message">): Promise<void> {
  const rec = await getScheduledMessage(deps, job.user_id, job.scheduled_message_id);
  if (!rec || rec.version !== job.version || rec.failed) return;
  const nowMs = deps.clock.now();
  if (rec.claimed_ms !== undefined) {
    // Another delivery has it: normally it finishes (and deletes the item)
    // long before this job's next look; a claim that outlives STALE_CLAIM_MS died.
    const staleAt = rec.claimed_ms + STALE_CLAIM_MS;
    if (nowMs < staleAt) await enqueueScheduledDelivery(deps, rec, staleAt);
    else await recordFailure(deps, rec, new Error("delivery claim expired"));
    return;
  }
  if (rec.scheduled_delivery_timestamp * 1000 > nowMs) {
    await enqueueScheduledDelivery(deps, rec);
    return;
  }
  if (!(await claimScheduledMessage(deps, rec.user_id, rec.id, rec.version, nowMs))) return;
  try {
    await sendScheduledMessage(deps, rec, nowMs);
  } catch (err) {
    await recordFailure(deps, rec, err);
    return;
  }
  await removeDeliveredScheduledMessage(deps, rec.user_id, rec.id, nowMs);
  await notifyScheduledMessageRemoved(deps, rec.user_id, rec.id);
}

/**
 * Zulip's `send_scheduled_message`: the organization and sender still
 * active, at most 10 minutes late, then the message checked and sent as
 * `POST /messages` does, with the stored client and `read_by_sender`.
 * @throws RealmDeactivatedError, UserDeactivatedError; JsonableError
 *   `Message could not be sent at the scheduled time.`; every error of `checkSendMessage`
 */
async function sendScheduledMessage(deps: Deps, rec: ScheduledMessageRecord, nowMs: number): Promise<number> {
  const { realm, user } = await userAndRealm(deps, rec.realm_id, rec.user_id);
  if (!realm || realm.deactivated) throw new RealmDeactivatedError();
  if (!user || !user.is_active) throw new UserDeactivatedError();
  if (nowMs > rec.scheduled_delivery_timestamp * 1000 + SCHEDULED_MESSAGE_LATE_CUTOFF_MS) {
    throw new JsonableError("Message could not be sent at the scheduled time.");
  }
  const sent = await checkSendMessage(deps, realm, user, {
    type: rec.type,
    to: rec.to,
    topic: rec.type === "stream" ? rec.topic : undefined,
    content: rec.content,
    readBySender: rec.read_by_sender,
    clientName: rec.client_name,
  });
  return sent.id;
}

/**
 * Zulip's failure branch of `try_deliver_one_scheduled_message`: `failed`
 * with the error's message (`Internal server error` for anything but a
 * client error), then, unless the organization or sender is deactivated or
 * the sender a system bot, the `update` event and the Notification Bot's
 * direct message (Zulip's `send_failed_scheduled_message_notification`).
 */
async function recordFailure(deps: Deps, rec: ScheduledMessageRecord, err: unknown): Promise<void> {
  const clientError = err instanceof JsonableError;
  if (!clientError) deps.log.error("scheduled message delivery failed", { scheduled_message_id: rec.id, error: String(err) });
  const failed = await markScheduledMessageFailed(deps, rec.user_id, rec.id, clientError ? err.message : "Internal server error");
  if (!failed || err instanceof RealmDeactivatedError || err instanceof UserDeactivatedError) return;
  const { realm, user } = await userAndRealm(deps, rec.realm_id, rec.user_id);
  if (!realm || !user || isSystemBot(user)) return;
  await notifyScheduledMessageUpdated(deps, failed);
  await sendDirectNotice(deps, realm, user, failureNoticeText(failed));
}

/** The Notification Bot's message about a scheduled message that was not sent (Zulip's wording; the time as a `<time:…>` in the reader's zone). */
export function failureNoticeText(rec: Pick<ScheduledMessageRecord, "scheduled_delivery_timestamp" | "failure_message">): string {
  const when = new Date(rec.scheduled_delivery_timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
  return [
    `The message you scheduled for <time:${when}> was not sent because of the following error:`,
    `> ${rec.failure_message ?? ""}`,
    "[View scheduled messages](#scheduled)",
  ].join("\n\n");
}

