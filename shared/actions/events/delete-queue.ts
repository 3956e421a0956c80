import type { Deps } from "../../deps.js";
import { deleteQueueItem } from "../../data/event-queues.js";
import type { UserRecord } from "../../data/records/user.js";
import { accessEventQueue } from "../../access/event-queue.js";

/**
 * `DELETE /events` (https://zulip.com/api/delete-queue; Zulip's
 * `cleanup_event_queue`): deletes one of the caller's event queues. Two
 * round trips: the queue's GetItem, then its DeleteItem.
 * @throws BadEventQueueIdError for an unknown or expired queue
 * @throws JsonableError `You are not authorized to access this queue` for another user's queue
 */
export async function doDeleteEventQueue(deps: Deps, user: UserRecord, queueId: string): Promise<void> {
  const queue = await accessEventQueue(deps, user, queueId, { forDeletion: true });
  await deleteQueueItem(deps, queue.queue_id);
}
