import type { Deps } from "../../deps.js";
import type { QueueOptions } from "../../data/records/event-queue.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { fetchInitialState } from "../../queries/register/initial-state.js";
import { versionFields } from "../../version.js";
import { createEventQueue, LONGPOLL_CLIENT_TIMEOUT_SECONDS, skipMessagesShownInSnapshot } from "../../events/queues.js";

/**
 * `POST /register` (https://zulip.com/api/register-queue; Zulip's
 * `do_events_register`): creates the queue first, then reads the initial
 * state, so that a change racing the snapshot is delivered by the queue
 * and never lost; message events whose message the snapshot already shows
 * as unread are then skipped (`skipMessagesShownInSnapshot`), as Zulip
 * folds them into the snapshot. Other racing events may arrive on top of a
 * snapshot that shows them (docs/events.md "Why the floor").
 *
 * Round trips: one PutItem for the queue, then the initial-state reads of
 * `shared/queries/register` in parallel, then one Query of the queue's
 * log(s) since its creation (and a save only when a racing event is skipped).
 * @returns `queue_id`, `last_event_id` (-1: nothing delivered yet),
 *   `event_queue_longpoll_timeout_seconds`, the version fields and the
 *   initial state of each requested fetch type
 */
export async function doEventsRegister(
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
  await skipMessagesShownInSnapshot(deps, queue, unreadMessageIds(state.unread_msgs));
  return {
    queue_id: queue.queue_id,
    last_event_id: -1,
    event_queue_longpoll_timeout_seconds: LONGPOLL_CLIENT_TIMEOUT_SECONDS,
    ...versionFields(),
    ...state,
  };
}

/** Every message ID an `unread_msgs` snapshot lists (empty when it was not fetched). */
function unreadMessageIds(unread: unknown): Set<number> {
  const ids = new Set<number>();
  if (!unread || typeof unread !== "object") return ids;
  const u = unread as { pms?: { unread_message_ids: number[] }[]; streams?: { unread_message_ids: number[] }[]; huddles?: { unread_message_ids: number[] }[]; mentions?: number[] };
  for (const group of [...(u.pms ?? []), ...(u.streams ?? []), ...(u.huddles ?? [])]) for (const id of group.unread_message_ids) ids.add(id);
  for (const id of u.mentions ?? []) ids.add(id);
  return ids;
}
