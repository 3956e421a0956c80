import type { Deps } from "../../deps.js";
import type { Store } from "../../data/client.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserRecord } from "../../data/records/user.js";

import { getSubscriptionsByPairs, listStreamSubscriberIds, putSubscriptions } from "../../data/subscriptions.js";
import { listActiveRealmUsers, type ActiveRealmUser } from "../../data/users.js";

import { isGuest, isRealmAdmin } from "../../domain/roles.js";
import { sortedIds } from "../../domain/sorting.js";
import { pickStreamColor } from "../../domain/stream-colors.js";
import { hasBasicStreamAccess, SubscriptionRole } from "../../domain/stream-permissions.js";
import { streamAudience } from "../../queries/streams/audience.js";
import { subscriptionToWire, type SubscriptionWireObject } from "../../wire/subscription.js";
import { notifyStreamCreated } from "./notify-streams.js";
import {
  notifySubscriptionPeers,
  notifySubscriptionsAdded,
  notifySubscriptionsRemoved,
  type SubscriptionsRemoved,
} from "./notify-subscriptions.js";

/** One (user, stream) pair of a bulk subscription change. */
export interface SubscriptionChange {
  user: UserRecord;
  stream: StreamRecord;
}

type Db = Store;

/**
 * A new subscription with Zulip's defaults: notifications inherit, not
 * muted, not pinned, a member (not a stream administrator).
 * @param color `#rrggbb` @default a color picked from the user and stream IDs
 */
export function newSubscription(user: UserRecord, stream: StreamRecord, color?: string): SubscriptionRecord {
  return {
    realm_id: stream.realm_id,
    user_id: user.user_id,
    stream_id: stream.stream_id,
    active: true,
    color: color ?? pickStreamColor(user.user_id, stream.stream_id),
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: null,
    audible_notifications: null,
    wildcard_mentions_notify: null,
    role: SubscriptionRole.MEMBER,
  };
}

/**
 * Every distinct (user, stream) pair with its stored subscription (active or
 * not), if any: one batched read for all pairs.
 */
async function withStoredSubscriptions(
  deps: Db,
  users: UserRecord[],
  streams: StreamRecord[],
): Promise<{ user: UserRecord; stream: StreamRecord; sub: SubscriptionRecord | undefined }[]> {
  const pairs = users.flatMap((u) => streams.map((s) => ({ userId: u.user_id, streamId: s.stream_id })));
  const existing = await getSubscriptionsByPairs(deps, pairs);
  const byPair = new Map(existing.map((sub) => [`${sub.user_id}:${sub.stream_id}`, sub]));
  const seen = new Set<string>();
  const out: { user: UserRecord; stream: StreamRecord; sub: SubscriptionRecord | undefined }[] = [];
  for (const user of users) {
    for (const stream of streams) {
      const pair = `${user.user_id}:${stream.stream_id}`;
      if (seen.has(pair)) continue;
      seen.add(pair);
      out.push({ user, stream, sub: byPair.get(pair) });
    }
  }
  return out;
}

/**
 * The common middle of adding and removing subscriptions: reads the altered
 * streams' subscriber lists as they were and the realm's active users (for
 * event audiences) in parallel, writes the subscriptions (batched), and
 * derives each altered stream's subscriber list after the change.
 */
async function writeSubscriptionChanges(
  deps: Deps,
  realm: RealmRecord,
  streams: StreamRecord[],
  changes: SubscriptionChange[],
  writes: SubscriptionRecord[],
  knownActiveUsers: ActiveRealmUser[] | undefined,
  op: "add" | "remove",
) {
  const altered = usersByStream(changes);
  const [before, activeUsers] = await Promise.all([
    subscribersOf(deps, [...altered.keys()]),
    knownActiveUsers ? Promise.resolve(knownActiveUsers) : listActiveRealmUsers(deps, realm.id),
  ]);
  await putSubscriptions(deps, writes);
  const after = new Map<number, number[]>();
  for (const [streamId, ids] of altered) {
    const prior = [...before.get(streamId)!];
    after.set(streamId, sortedIds(op === "add" ? [...prior, ...ids] : prior.filter((id) => !ids.has(id))));
  }
  const streamById = new Map(streams.map((s) => [s.stream_id, s]));
  return { altered, after, activeUsers, streamById };
}

/** Groups (user, stream) pairs by stream: stream ID → the IDs of the users whose subscription changes. */
function usersByStream(pairs: { user: { user_id: number }; stream: { stream_id: number } }[]): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const { user, stream } of pairs) {
    if (!out.has(stream.stream_id)) out.set(stream.stream_id, new Set());
    out.get(stream.stream_id)!.add(user.user_id);
  }
  return out;
}

/** The current subscriber lists of some streams: one Query of each stream's subscriber index, all in parallel. */
async function subscribersOf(deps: Db, streamIds: number[]): Promise<Map<number, Set<number>>> {
  const lists = await Promise.all(streamIds.map((id) => listStreamSubscriberIds(deps, id)));
  return new Map(streamIds.map((id, i) => [id, new Set(lists[i])]));
}

/**
 * Subscribes users to streams (Zulip's `bulk_add_subscriptions`).
 *
 * Round trips, whatever the number of users: one BatchGet of the existing
 * (user, stream) rows (per 100 pairs, in parallel); the current subscriber
 * list of each affected stream and the realm's active users, in parallel;
 * one BatchWrite per 25 new or reactivated rows (4 at a time). A
 * reactivated subscription keeps its old color and settings.
 *
 * Events, after the write: `stream` `create` to new subscribers who could
 * not see the stream before (private streams: non-administrators; public
 * streams: guests); `subscription` `add` with full subscription objects
 * (subscribers included) to each newly subscribed user; `subscription`
 * `peer_add` to everyone else who can see each stream's subscribers.
 *
 * Preconditions: the caller checked that the acting user may subscribe
 * these (active) users to these (active) streams.
 * @param opts.colorMap lower-cased stream name → color requested for new subscriptions
 * @param opts.fromUserCreation the users are being created and have no event queue yet:
 *   skip their own `stream`/`subscription` events (peers are still told)
 * @param opts.activeUsers the realm's active users, when the caller already has them
 * @returns changed pairs and pairs that were already subscribed, ordered by user then stream as given
 */
export async function doAddSubscriptions(
  deps: Deps,
  realm: RealmRecord,
  streams: StreamRecord[],
  users: UserRecord[],
  opts: { colorMap?: Map<string, string>; fromUserCreation?: boolean; activeUsers?: ActiveRealmUser[] } = {},
): Promise<{ subscribed: SubscriptionChange[]; alreadySubscribed: SubscriptionChange[] }> {
  const subscribed: SubscriptionChange[] = [];
  const alreadySubscribed: SubscriptionChange[] = [];
  const writes: SubscriptionRecord[] = [];
  for (const { user, stream, sub } of await withStoredSubscriptions(deps, users, streams)) {
    if (sub?.active) {
      alreadySubscribed.push({ user, stream });
      continue;
    }
    writes.push(
      sub ? { ...sub, active: true } : newSubscription(user, stream, opts.colorMap?.get(stream.name.toLowerCase())),
    );
    subscribed.push({ user, stream });
  }
  if (writes.length === 0) return { subscribed, alreadySubscribed };

  const { altered, after, activeUsers, streamById } = await writeSubscriptionChanges(
    deps, realm, streams, subscribed, writes, opts.activeUsers, "add",
  );

  if (!opts.fromUserCreation) {
    // New subscribers who could not see the stream learn that it exists first.
    const userById = new Map(users.map((u) => [u.user_id, u]));
    await Promise.all(
      [...altered].map(([streamId, ids]) => {
        const stream = streamById.get(streamId)!;
        const notify = [...ids].filter((id) => {
          const user = userById.get(id)!;
          if (stream.invite_only) return !isRealmAdmin(user);
          return !stream.is_web_public && isGuest(user);
        });
        if (notify.length === 0) return Promise.resolve();
        return notifyStreamCreated(deps, [stream], sortedIds(notify));
      }),
    );

    const objectsByUser = new Map<number, SubscriptionWireObject[]>();
    for (const sub of writes) {
      const stream = streamById.get(sub.stream_id)!;
      const list = objectsByUser.get(sub.user_id) ?? [];
      list.push(subscriptionToWire(stream, sub, { subscribers: after.get(sub.stream_id)! }));
      objectsByUser.set(sub.user_id, list);
    }
    await notifySubscriptionsAdded(deps, objectsByUser);
  }

  await notifyPeersOfChanges(deps, "peer_add", altered, streamById, after, activeUsers);
  return { subscribed, alreadySubscribed };
}

/**
 * Sends `peer_add`/`peer_remove` for each changed stream to the users who
 * can see its subscribers (see `streamAudience`), minus the changed users.
 */
async function notifyPeersOfChanges(
  deps: Deps,
  op: "peer_add" | "peer_remove",
  altered: Map<number, Set<number>>,
  streamById: Map<number, StreamRecord>,
  after: Map<number, number[]>,
  activeUsers: ActiveRealmUser[],
): Promise<void> {
  await Promise.all(
    [...altered].map(([streamId, ids]) => {
      const stream = streamById.get(streamId)!;
      const audience = streamAudience(stream, activeUsers, after.get(streamId)!).filter((id) => !ids.has(id));
      if (audience.length === 0) return Promise.resolve();
      return notifySubscriptionPeers(deps, op, streamId, ids, audience);
    }),
  );
}

/**
 * Unsubscribes users from streams (Zulip's `bulk_remove_subscriptions`):
 * the rows stay, with `active: false`, out of the streams' subscriber indexes.
 *
 * Round trips as for {@link doAddSubscriptions}: one BatchGet of the rows,
 * the affected streams' subscriber lists and the active users in parallel,
 * one BatchWrite per 25 rows.
 *
 * Events, after the write: `subscription` `remove` to each unsubscribed
 * user; `stream` `delete` to those who can no longer see a private stream
 * (non-administrators); `subscription` `peer_remove` to the users who can
 * see each stream's subscribers.
 *
 * Preconditions: the caller checked that the acting user may unsubscribe these users.
 * @returns removed pairs and pairs that were not subscribed, ordered by user then stream as given
 */
export async function doRemoveSubscriptions(
  deps: Deps,
  realm: RealmRecord,
  users: UserRecord[],
  streams: StreamRecord[],
  opts: { activeUsers?: ActiveRealmUser[] } = {},
): Promise<{ removed: SubscriptionChange[]; notSubscribed: SubscriptionChange[] }> {
  const removed: SubscriptionChange[] = [];
  const notSubscribed: SubscriptionChange[] = [];
  const writes: SubscriptionRecord[] = [];
  for (const { user, stream, sub } of await withStoredSubscriptions(deps, users, streams)) {
    if (!sub?.active) {
      notSubscribed.push({ user, stream });
      continue;
    }
    writes.push({ ...sub, active: false });
    removed.push({ user, stream });
  }
  if (writes.length === 0) return { removed, notSubscribed };

  const { altered, after, activeUsers, streamById } = await writeSubscriptionChanges(
    deps, realm, streams, removed, writes, opts.activeUsers, "remove",
  );

  // Each user's `remove` goes out before their `delete`.
  const lostByUser = new Map<number, { user: UserRecord; streams: StreamRecord[] }>();
  for (const { user, stream } of removed) {
    const entry = lostByUser.get(user.user_id) ?? { user, streams: [] };
    entry.streams.push(stream);
    lostByUser.set(user.user_id, entry);
  }
  const perUser: SubscriptionsRemoved[] = [...lostByUser].map(([userId, { user, streams: lost }]) => ({
    userId,
    removed: lost,
    inaccessible: lost.filter((s) => !hasBasicStreamAccess(user, s, undefined, { allowRealmAdmin: true })),
  }));
  await notifySubscriptionsRemoved(deps, perUser);

  await notifyPeersOfChanges(deps, "peer_remove", altered, streamById, after, activeUsers);
  return { removed, notSubscribed };
}
