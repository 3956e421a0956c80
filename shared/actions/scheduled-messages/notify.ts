import type { Deps } from "../../deps.js";
import type { ScheduledMessageRecord } from "../../data/records/scheduled-message.js";
import { sendEvent } from "../../events/publish.js";
import { scheduledMessageToWire } from "../../wire/scheduled-message.js";

/**
 * Sends `scheduled_messages` `add` (https://zulip.com/api/get-events#scheduled_messages-add)
 * to the sender's own clients (Zulip's `notify_new_scheduled_message`).
 */
export async function notifyScheduledMessagesAdded(deps: Deps, userId: number, recs: ScheduledMessageRecord[]): Promise<void> {
  await sendEvent(deps, { type: "scheduled_messages", op: "add", scheduled_messages: recs.map(scheduledMessageToWire) }, [userId]);
}

/**
 * Sends `scheduled_messages` `update` (https://zulip.com/api/get-events#scheduled_messages-update)
 * with the whole scheduled message to its sender's clients: after an edit,
 * and when delivery failed (Zulip's `notify_update_scheduled_message`).
 */
export async function notifyScheduledMessageUpdated(deps: Deps, rec: ScheduledMessageRecord): Promise<void> {
  await sendEvent(deps, { type: "scheduled_messages", op: "update", scheduled_message: scheduledMessageToWire(rec) }, [rec.user_id]);
}

/**
 * Sends `scheduled_messages` `remove` (https://zulip.com/api/get-events#scheduled_messages-remove)
 * to the sender's clients: deleted, or sent (Zulip's `notify_remove_scheduled_message`).
 */
export async function notifyScheduledMessageRemoved(deps: Deps, userId: number, id: number): Promise<void> {
  await sendEvent(deps, { type: "scheduled_messages", op: "remove", scheduled_message_id: id }, [userId]);
}
