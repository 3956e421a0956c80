import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStreamIdByName, listRealmStreams } from "../../data/streams.js";
import { getSubscription, listStreamSubscriberIds, listUserSubscriptions } from "../../data/subscriptions.js";
import { listActiveRealmUsers, userById } from "../../data/users.js";
import { isGuest, isRealmAdmin } from "../../domain/roles.js";
import { compareNames } from "../../domain/sorting.js";
import { InvalidChannelIdError, InvalidChannelNameError, JsonableError, NoSuchUserError } from "../../errors.js";
import {
  streamToWire,
  streamWithDefaultToWire,
  type StreamWireObject,
  type StreamWithDefaultWireObject,
} from "../../wire/stream.js";
import { accessStream } from "../../access/stream.js";

/** The boolean filters of `GET /streams` (https://zulip.com/api/get-streams). */
export interface GetStreamsOptions {
  /** @default true */
  include_public: boolean;
  /** @default false */
  include_web_public: boolean;
  /** @default true */
  include_subscribed: boolean;
  /** Administrators only. @default false */
  include_all_active: boolean;
  /** @default false */
  include_default: boolean;
  /** For bots: the streams their owner is subscribed to. @default false */
  include_owner_subscribed: boolean;
}

/**
 * `GET /streams` (https://zulip.com/api/get-streams; Zulip's
 * `do_get_streams`): the active streams matching
 * any of the requested sources, as Stream objects sorted by name, with
 * `is_default` when `include_default` is set. `include_all_active` (every
 * active stream, private ones included, metadata only) is for
 * administrators; guests never get public streams they are not subscribed
 * to. Round trips: the realm's streams, plus the caller's (or bot owner's)
 * subscriptions when asked, in parallel.
 * @throws JsonableError 400 `User not authorized for this query` for `include_all_active` by a non-administrator
 */
export async function fetchStreams(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  opts: GetStreamsOptions,
): Promise<(StreamWireObject | StreamWithDefaultWireObject)[]> {
  if (opts.include_all_active && !isRealmAdmin(user)) throw new JsonableError("User not authorized for this query");
  const includePublic = opts.include_public && !isGuest(user);
  const ownerId = opts.include_owner_subscribed && user.is_bot ? user.bot_owner_id : null;
  const [streams, ownSubs, ownerSubs] = await Promise.all([
    listRealmStreams(deps, realm.id),
    opts.include_subscribed && !opts.include_all_active ? listUserSubscriptions(deps, user.user_id) : Promise.resolve([]),
    ownerId !== null && !opts.include_all_active ? listUserSubscriptions(deps, ownerId) : Promise.resolve([]),
  ]);
  const subscribed = new Set([...ownSubs, ...ownerSubs].filter((s) => s.active).map((s) => s.stream_id));
  const selected = streams.filter((s) => {
    if (s.deactivated) return false;
    if (opts.include_all_active) return true;
    if (subscribed.has(s.stream_id)) return true;
    if (includePublic && !s.invite_only) return true;
    return opts.include_web_public && s.is_web_public && !s.invite_only && s.history_public_to_subscribers;
  });
  return selected
    .map((s) => (opts.include_default ? streamWithDefaultToWire(s) : streamToWire(s)))
    .sort((a, b) => compareNames(a.name, b.name));
}

/**
 * `GET /streams/{stream_id}` (https://zulip.com/api/get-stream-by-id): one
 * stream object. Administrators may fetch
 * private streams they are not subscribed to (Zulip's `allow_realm_admin`).
 * One round trip.
 * @throws InvalidChannelIdError 400 `Invalid channel ID` for a missing, archived or invisible stream
 */
export async function fetchStreamById(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  streamId: number,
): Promise<StreamWireObject> {
  const { stream } = await accessStream(deps, user, realm, streamId, {
    allowRealmAdmin: true,
    error: () => new InvalidChannelIdError(),
  });
  return streamToWire(stream);
}

/**
 * `GET /get_stream_id` (https://zulip.com/api/get-stream-id): the ID of a
 * stream by name (case-insensitive),
 * for streams the caller may access (no administrator exemption, as in
 * Zulip's `access_stream_by_name`). Two round trips.
 * @throws InvalidChannelNameError 400 `Invalid channel name '<name>'`
 */
export async function fetchStreamIdByName(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  name: string,
): Promise<number> {
  const streamId = await getStreamIdByName(deps, realm.id, name);
  if (streamId === undefined) throw new InvalidChannelNameError(name);
  await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelNameError(name) });
  return streamId;
}

/**
 * `GET /streams/{stream_id}/members` (https://zulip.com/api/get-subscribers):
 * the IDs of the stream's active
 * subscribers (deactivated users left out), ascending. Administrators may
 * list private streams they are not subscribed to. Round trips: the stream
 * with the caller's subscription, then the stream's subscriber index and
 * the realm's active users in parallel.
 * @throws InvalidChannelIdError 400 `Invalid channel ID`
 */
export async function fetchStreamSubscriberIds(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  streamId: number,
): Promise<number[]> {
  const { stream } = await accessStream(deps, user, realm, streamId, {
    allowRealmAdmin: true,
    error: () => new InvalidChannelIdError(),
  });
  const [ids, activeUsers] = await Promise.all([
    listStreamSubscriberIds(deps, stream.stream_id),
    listActiveRealmUsers(deps, realm.id),
  ]);
  const activeIds = new Set(activeUsers.map((u) => u.user_id));
  return ids.filter((id) => activeIds.has(id)).sort((a, b) => a - b);
}

/**
 * `GET /users/{user_id}/subscriptions/{stream_id}`
 * (https://zulip.com/api/get-subscription-status): whether a user is
 * subscribed to a stream the caller may see (administrators: any stream).
 * Round trips: the target user, then the stream with the caller's and the
 * target's subscriptions.
 * @throws NoSuchUserError 400 `No such user` for an unknown user or a bot (Zulip's `access_user_by_id`)
 * @throws JsonableError 400 `User is deactivated`
 * @throws InvalidChannelIdError 400 `Invalid channel ID`
 */
export async function fetchSubscriptionStatus(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  targetUserId: number,
  streamId: number,
): Promise<boolean> {
  const target = await userById(deps, realm.id, targetUserId);
  if (!target || target.is_bot) throw new NoSuchUserError();
  if (!target.is_active) throw new JsonableError("User is deactivated");
  const [, sub] = await Promise.all([
    accessStream(deps, user, realm, streamId, { allowRealmAdmin: true, error: () => new InvalidChannelIdError() }),
    getSubscription(deps, target.user_id, streamId),
  ]);
  return sub?.active === true;
}
