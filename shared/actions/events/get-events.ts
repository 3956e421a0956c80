import type { Deps } from "../../deps.js";
import { BadEventQueueIdError } from "../../errors.js";
import type { QueueOptions } from "../../data/records/event-queue.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { withWriteRetries } from "../../data/retry.js";
import { accessEventQueue } from "../../access/event-queue.js";
import type { DeliveredEvent } from "../../events/types.js";
import { createEventQueue, pollDeadline, pollEventQueue } from "../../events/queues.js";

/**
 * How many polls of one request may lose the queue's save to another poll
 * of the same queue before the request gives up with `BAD_EVENT_QUEUE_ID`
 * (the client then re-registers).
 */
const QUEUE_SAVE_ATTEMPTS = 6;

/** A parsed `GET /events` request. */
export interface GetEventsRequest {
  /**
   * The queue to poll and the highest event ID the client has processed
   * (undefined acknowledges nothing); or, for `GET /events` without
   * `queue_id`, the options of a queue to register first.
   */
  queue: { id: string; lastEventId?: number } | { register: QueueOptions };
  dontBlock: boolean;
  /** Longest time to hold the request without events, in milliseconds. */
  holdMs: number;
  /** Milliseconds left before the Lambda's own deadline, read when the poll starts. */
  remainingTimeMs?: () => number;
}

/**
 * `GET /events` (https://zulip.com/api/get-events; Zulip's
 * `get_events_backend`): optionally registers a queue, then polls it
 * ({@link pollEventQueue}) after {@link accessEventQueue}. Every answer is
 * saved with a write conditional on the queue's version; when another poll
 * of the same queue saved first, the queue is read again and the poll
 * redone on its state (at most {@link QUEUE_SAVE_ATTEMPTS} times).
 *
 * Round trips per poll: 1 GetItem (the queue), then those of
 * {@link pollEventQueue}; registering adds one PutItem.
 * @returns the events (each with `id`) in ID order, and the queue's ID
 * @throws BadEventQueueIdError unknown or expired queue, or a queue whose
 *   saves keep losing; JsonableError for another user's queue
 * @throws JsonableError `Event <n> was not in this queue` / `An event newer than <n> has already been pruned!`
 */
export async function doGetEvents(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  req: GetEventsRequest,
): Promise<{ events: DeliveredEvent[]; queue_id: string }> {
  const { queueId, lastEventId } =
    "register" in req.queue
      ? { queueId: (await createEventQueue(deps, realm, user, req.queue.register)).queue_id, lastEventId: undefined }
      : { queueId: req.queue.id, lastEventId: req.queue.lastEventId };
  const deadline = pollDeadline(deps.clock.now(), req.holdMs, req.remainingTimeMs?.());
  const events = await withWriteRetries(
    "get events",
    async () => {
      const queue = await accessEventQueue(deps, user, queueId);
      return pollEventQueue(deps, queue, { lastEventId, dontBlock: req.dontBlock, deadline });
    },
    {
      // One try more than the saves allowed, so that the last lost save ends in the client's error.
      maxAttempts: QUEUE_SAVE_ATTEMPTS + 1,
      onConflict: (attempt) => {
        if (attempt >= QUEUE_SAVE_ATTEMPTS) throw new BadEventQueueIdError(queueId);
      },
    },
  );
  return { events, queue_id: queueId };
}
