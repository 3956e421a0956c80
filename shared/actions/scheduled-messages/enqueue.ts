import type { Deps } from "../../deps.js";
import { SQS_MAX_DELAY_SECONDS } from "../../deferred/deferred-work.js";
import type { ScheduledMessageRecord } from "../../data/records/scheduled-message.js";

/**
 * Enqueues the `send_scheduled_message` job of a scheduled message's current
 * version, delayed until its delivery time or by SQS's 15-minute maximum
 * (the job then re-enqueues itself). Seconds are rounded up, so the job
 * never arrives before the time. One SQS SendMessageBatch.
 */
export async function enqueueScheduledDelivery(deps: Deps, rec: ScheduledMessageRecord, dueMs = rec.scheduled_delivery_timestamp * 1000): Promise<void> {
  const wait = Math.ceil((dueMs - deps.clock.now()) / 1000);
  await deps.deferred.enqueue(
    [{ kind: "send_scheduled_message", payload: { realm_id: rec.realm_id, user_id: rec.user_id, scheduled_message_id: rec.id, version: rec.version } }],
    { delaySeconds: Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, wait)) },
  );
}
