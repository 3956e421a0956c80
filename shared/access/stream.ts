import type { Store } from "../data/client.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { StreamRecord } from "../data/records/stream.js";
import type { SubscriptionRecord } from "../data/records/subscription.js";
import type { UserRecord } from "../data/records/user.js";

import { getStream, getStreamIdByName } from "../data/streams.js";
import { getSubscription } from "../data/subscriptions.js";

import { hasBasicStreamAccess } from "../domain/stream-permissions.js";
import { JsonableError, StreamDoesNotExistError, StreamIdDoesNotExistError } from "../errors.js";

export { canReadStreamHistory, checkStreamPostPolicy } from "../domain/stream-permissions.js";

/**
 * Stream access checks (Zulip's `access_stream_by_id` / `access_stream_by_name`):
 * load a stream together with the caller's subscription, and refuse streams
 * that are missing, archived or invisible to the caller with one and the
 * same error, so that private streams never leak.
 */

type Db = Store;

/** A stream the caller may access, and the caller's active subscription to it (if any). */
export interface StreamAccess {
  stream: StreamRecord;
  /** The caller's subscription when it is active; undefined when never or no longer subscribed. */
  sub: SubscriptionRecord | undefined;
}

/**
 * Loads a stream and the user's subscription in parallel (one round trip).
 * @returns the stream (undefined when missing or archived) and the active subscription
 */
export async function loadStreamAndSubscription(
  deps: Db,
  user: Pick<UserRecord, "user_id">,
  realm: Pick<RealmRecord, "id">,
  streamId: number,
): Promise<{ stream: StreamRecord | undefined; sub: SubscriptionRecord | undefined }> {
  const [stream, sub] = await Promise.all([
    getStream(deps, realm.id, streamId),
    getSubscription(deps, user.user_id, streamId),
  ]);
  return {
    stream: stream && !stream.deactivated ? stream : undefined,
    sub: sub?.active ? sub : undefined,
  };
}

/**
 * Loads a stream for a user and checks that the user may see it, throwing
 * `error()` otherwise. One round trip.
 * @param opts.allowRealmAdmin let administrators see private streams they are not
 *   subscribed to (subscriber lists and settings, never messages)
 * @param opts.error the error for a missing, archived or invisible stream
 */
export async function accessStream(
  deps: Db,
  user: UserRecord,
  realm: Pick<RealmRecord, "id">,
  streamId: number,
  opts: { allowRealmAdmin?: boolean; error: () => JsonableError },
): Promise<StreamAccess> {
  const { stream, sub } = await loadStreamAndSubscription(deps, user, realm, streamId);
  if (!stream || !hasBasicStreamAccess(user, stream, sub, { allowRealmAdmin: opts.allowRealmAdmin })) {
    throw opts.error();
  }
  return { stream, sub };
}

/**
 * Access to a stream by ID for sending to or reading it (Zulip's
 * `access_stream_by_id` without the administrator exemption): web-public
 * streams for everyone, public streams for non-guests, otherwise only for
 * subscribers; organization administrators get no exception for private
 * streams. One round trip.
 * @returns the stream and the caller's active subscription (undefined when not subscribed)
 * @throws StreamIdDoesNotExistError (400 `STREAM_DOES_NOT_EXIST`, `Channel with ID '<id>' does not exist`)
 *   when the stream is missing, archived, or private and the user is not subscribed
 */
export async function accessStreamById(
  deps: Db,
  user: UserRecord,
  realm: Pick<RealmRecord, "id">,
  streamId: number,
): Promise<StreamAccess> {
  return accessStream(deps, user, realm, streamId, { error: () => new StreamIdDoesNotExistError(streamId) });
}

/**
 * Access to a stream by name (case-insensitive), with the rules of
 * {@link accessStreamById}. Two round trips (the unique-name item, then the
 * stream with the subscription).
 * @throws StreamDoesNotExistError (400 `STREAM_DOES_NOT_EXIST`, `Channel '<name>' does not exist`)
 *   when the stream is missing, archived, or private and the user is not subscribed
 */
export async function accessStreamByName(
  deps: Db,
  user: UserRecord,
  realm: Pick<RealmRecord, "id">,
  name: string,
): Promise<StreamAccess> {
  const streamId = await getStreamIdByName(deps, realm.id, name);
  if (streamId === undefined) throw new StreamDoesNotExistError(name);
  return accessStream(deps, user, realm, streamId, { error: () => new StreamDoesNotExistError(name) });
}

