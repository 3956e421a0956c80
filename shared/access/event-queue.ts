import type { Deps } from "../deps.js";
import { BadEventQueueIdError, JsonableError } from "../errors.js";
import { getQueue } from "../data/event-queues.js";
import type { EventQueueRecord } from "../data/records/event-queue.js";
import type { UserRecord } from "../data/records/user.js";
import { isLiveQueue } from "../events/queues.js";

/**
 * Loads an event queue for its owner (Zulip's `access_client_descriptor`
 * in `zerver/tornado/views.py`, and the same checks of
 * `cleanup_event_queue`). One strongly consistent GetItem.
 * @param options.forDeletion the refusal wording of `DELETE /events`
 *   (`You are not authorized to access this queue`) instead of `GET /events`'
 * @throws BadEventQueueIdError when the queue does not exist or has been
 *   inactive for more than `QUEUE_TIMEOUT_MS` (a client re-registers then)
 * @throws JsonableError `You are not authorized to get events from this queue`
 *   (or, for deletion, `… to access this queue`) for another user's live queue
 */
export async function accessEventQueue(
  deps: Deps,
  user: UserRecord,
  queueId: string,
  options: { forDeletion?: boolean } = {},
): Promise<EventQueueRecord> {
  const queue = await getQueue(deps, queueId);
  if (!isLiveQueue(queue, deps.clock.now())) throw new BadEventQueueIdError(queueId);
  // Someone else's live queue is a refusal, not a reason to re-register.
  if (queue.user_id !== user.user_id || queue.realm_id !== user.realm_id) {
    throw new JsonableError(
      options.forDeletion
        ? "You are not authorized to access this queue"
        : "You are not authorized to get events from this queue",
    );
  }
  return queue;
}
