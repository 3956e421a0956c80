import type { Deps } from "../../deps.js";
import type { StreamRecord } from "../../data/records/stream.js";
import { sortedIds } from "../../domain/sorting.js";
import { sendEventsPerUser } from "../../events/per-user.js";
import { sendEvent } from "../../events/publish.js";
import type { EventOf, ZulipEvent } from "../../events/types.js";
import type { SubscriptionWireObject } from "../../wire/subscription.js";
import { streamDeleteEvent, type Holds, type SameFields } from "./notify-streams.js";

/**
 * The `subscription` events (https://zulip.com/api/get-events#subscription-add
 * and the following sections), built typed and sent by the subscription
 * actions.
 */

/** The subscription objects of `subscription` `add` have exactly the fields of the event's schema. */
type _SubscriptionWireIsTheSchema = Holds<
  SameFields<SubscriptionWireObject, EventOf<"subscription/add">["subscriptions"][number]>
>;

/**
 * Tells each newly subscribed user about their new subscriptions (Zulip's
 * `send_subscription_add_events`): one `subscription` `add` per user,
 * carrying that user's own subscription objects.
 * @param objectsByUser user ID → the user's new subscriptions, subscribers included
 */
export async function notifySubscriptionsAdded(
  deps: Deps,
  objectsByUser: Map<number, SubscriptionWireObject[]>,
): Promise<void> {
  await sendEventsPerUser(
    deps,
    [...objectsByUser].map(([userId, subscriptions]) => {
      const event: EventOf<"subscription/add"> = { type: "subscription", op: "add", subscriptions };
      return { userId, events: [event] };
    }),
  );
}

/** What one unsubscribed user is told: the streams left, and those of them the user can no longer see. */
export interface SubscriptionsRemoved {
  userId: number;
  removed: StreamRecord[];
  inaccessible: StreamRecord[];
}

/**
 * Tells each unsubscribed user (Zulip's `send_subscription_remove_events`):
 * `subscription` `remove` with the streams' names and IDs, then, when some
 * of those streams became invisible to them, `stream` `delete` for these.
 * One user's events go out in that order.
 */
export async function notifySubscriptionsRemoved(deps: Deps, perUser: SubscriptionsRemoved[]): Promise<void> {
  await sendEventsPerUser(
    deps,
    perUser.map(({ userId, removed, inaccessible }) => {
      const remove: EventOf<"subscription/remove"> = {
        type: "subscription",
        op: "remove",
        subscriptions: removed.map((s) => ({ name: s.name, stream_id: s.stream_id })),
      };
      const events: ZulipEvent[] = [remove];
      if (inaccessible.length > 0) events.push(streamDeleteEvent(inaccessible));
      return { userId, events };
    }),
  );
}

/**
 * Tells `audience` that users joined or left a stream (Zulip's
 * `send_peer_subscriber_events`: `subscription` `peer_add` / `peer_remove`).
 * @param userIds the users who joined or left (listed ascending)
 */
export async function notifySubscriptionPeers(
  deps: Deps,
  op: "peer_add" | "peer_remove",
  streamId: number,
  userIds: Iterable<number>,
  audience: number[],
): Promise<void> {
  const event: EventOf<"subscription/peer_add"> | EventOf<"subscription/peer_remove"> = {
    type: "subscription",
    op,
    stream_ids: [streamId],
    user_ids: sortedIds(userIds),
  };
  await sendEvent(deps, event, audience);
}

/**
 * Tells a user that one of their subscription's personal properties changed
 * (Zulip's `do_change_subscription_property`:
 * https://zulip.com/api/get-events#subscription-update).
 */
export async function notifySubscriptionUpdated(
  deps: Deps,
  userId: number,
  streamId: number,
  property: string,
  value: EventOf<"subscription/update">["value"],
): Promise<void> {
  const event: EventOf<"subscription/update"> = { type: "subscription", op: "update", property, value, stream_id: streamId };
  await sendEvent(deps, event, [userId]);
}
