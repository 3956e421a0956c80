import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStreamsByIds } from "../../data/streams.js";
import { listStreamSubscriberIds, listUserSubscriptions } from "../../data/subscriptions.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { compareNames } from "../../domain/sorting.js";

import { subscriptionToWire, type SubscriptionWireObject } from "../../wire/subscription.js";

/**
 * `GET /users/me/subscriptions` (https://zulip.com/api/get-subscriptions;
 * Zulip's `gather_subscriptions`): the
 * user's active subscriptions as full subscription objects
 * (`shared/wire/subscription.ts`), sorted by name; archived streams are
 * left out.
 *
 * With `includeSubscribers`, each object carries `subscribers`: the IDs of
 * the stream's active subscribers (deactivated users left out), ascending.
 *
 * Round trips: the user's subscription partition (one Query), then their
 * streams (one BatchGet per 100); with subscribers, one Query of each
 * stream's subscriber index and the realm's active users, all in parallel. Nothing here is
 * proportional to the number of streams in the realm.
 */
export async function gatherSubscriptions(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  opts: { includeSubscribers?: boolean } = {},
): Promise<SubscriptionWireObject[]> {
  const subs = (await listUserSubscriptions(deps, user.user_id)).filter((s) => s.active);
  const streamIds = subs.map((s) => s.stream_id);
  const [streams, lists, activeUsers] = await Promise.all([
    getStreamsByIds(deps, realm.id, streamIds),
    opts.includeSubscribers ? Promise.all(streamIds.map((id) => listStreamSubscriberIds(deps, id))) : Promise.resolve([]),
    opts.includeSubscribers ? listActiveRealmUsers(deps, realm.id) : Promise.resolve([]),
  ]);
  const activeIds = new Set(activeUsers.map((u) => u.user_id));
  const subscribersByStream = new Map(
    streamIds.map((id, i) => [id, (lists[i] ?? []).filter((u) => activeIds.has(u)).sort((a, b) => a - b)]),
  );
  const out: SubscriptionWireObject[] = [];
  for (const sub of subs) {
    const stream = streams.get(sub.stream_id);
    if (!stream || stream.deactivated) continue;
    out.push(
      subscriptionToWire(stream, sub, {
        subscribers: opts.includeSubscribers ? subscribersByStream.get(sub.stream_id) : undefined,
      }),
    );
  }
  return out.sort((a, b) => compareNames(a.name, b.name));
}
