import type { Deps } from "../deps.js";
import type { QueueOptions } from "../data/event-queues.js";
import type { RealmRecord } from "../data/realms.js";
import type { UserRecord } from "../data/users.js";
import { fetchInitialState } from "../queries/register/index.js";
import { versionFields } from "../version.js";
import { createEventQueue, LONGPOLL_CLIENT_TIMEOUT_SECONDS } from "./queues.js";

/**
 * `POST /register` (spec "Register an event queue"; Zulip's
 * `do_events_register`): creates the queue first, then reads the initial
 * state, so that a change racing the snapshot is delivered by the queue:
 * never lost, though possibly on top of a snapshot that already shows it
 * (Zulip folds such events into the snapshot; docs/events.md "Why the
 * floor" says why we prefer the duplicate).
 *
 * Round trips: one PutItem for the queue, then the initial-state reads of
 * `shared/queries/register` in parallel.
 * @returns `queue_id`, `last_event_id` (-1: nothing delivered yet),
 *   `event_queue_longpoll_timeout_seconds`, the version fields and the
 *   initial state of each requested fetch type
 */
export async function registerEventQueue(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  options: QueueOptions,
  fetch: { fetchEventTypes: string[] | null; includeSubscribers: boolean },
): Promise<Record<string, unknown>> {
  const queue = await createEventQueue(deps, realm, user, options);
  const state = await fetchInitialState(deps, realm, user, {
    fetchEventTypes: fetch.fetchEventTypes,
    clientGravatar: options.client_gravatar,
    slimPresence: options.slim_presence,
    includeSubscribers: fetch.includeSubscribers,
    capabilities: options.capabilities,
    longpollTimeoutSeconds: LONGPOLL_CLIENT_TIMEOUT_SECONDS,
  });
  return {
    queue_id: queue.queue_id,
    last_event_id: -1,
    event_queue_longpoll_timeout_seconds: LONGPOLL_CLIENT_TIMEOUT_SECONDS,
    ...versionFields(),
    ...state,
  };
}
