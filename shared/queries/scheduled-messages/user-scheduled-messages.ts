import type { Deps } from "../../deps.js";
import { listUserScheduledMessages } from "../../data/scheduled-messages.js";
import type { UserRecord } from "../../data/records/user.js";
import { scheduledMessageToWire, type WireScheduledMessage } from "../../wire/scheduled-message.js";

/**
 * A user's undelivered scheduled messages, earliest delivery first (ties:
 * by ID), as https://zulip.com/api/get-scheduled-messages lists them
 * (Zulip's `get_undelivered_scheduled_messages`). One being sent right now
 * is left out. One strongly consistent Query per 1 MB page.
 */
export async function fetchUserScheduledMessages(deps: Deps, userId: number): Promise<WireScheduledMessage[]> {
  const recs = await listUserScheduledMessages(deps, userId);
  return recs
    .filter((r) => r.claimed_ms === undefined)
    .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.id - b.id)
    .map(scheduledMessageToWire);
}

/** The `scheduled_messages` key of `POST /register` (https://zulip.com/api/register-queue), as {@link fetchUserScheduledMessages}. */
export async function scheduledMessagesInitialState(deps: Deps, me: UserRecord): Promise<{ scheduled_messages: WireScheduledMessage[] }> {
  return { scheduled_messages: await fetchUserScheduledMessages(deps, me.user_id) };
}
