import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { listRealmStreams } from "../../data/streams.js";
import { listActiveRealmUsers, listRealmMembers } from "../../data/users.js";
import { doAddSubscriptions } from "./bulk-subscriptions.js";
import { doCreateStreams } from "./create-streams.js";

/** Name and description of the stream every new organization starts with (Zulip's). */
export const DEFAULT_STREAM_NAME = "general";
export const DEFAULT_STREAM_DESCRIPTION = "Everyone is added to this channel by default. Welcome! :octopus:";

/**
 * Creates an organization's initial default stream, the public `general`
 * stream, and subscribes the realm's active users to it (Zulip's
 * `create_default_streams` at realm creation). Call once, right after the
 * realm and its owner are created; a realm that already has `general`
 * keeps it (its users are subscribed to the existing stream).
 * @param owner recorded as the stream's creator
 * @returns the `general` stream
 */
export async function doCreateDefaultStreams(deps: Deps, realm: RealmRecord, owner: UserRecord): Promise<StreamRecord> {
  const [users, activeUsers] = await Promise.all([listRealmMembers(deps, realm.id), listActiveRealmUsers(deps, realm.id)]);
  const { created, existing } = await doCreateStreams(
    deps,
    realm,
    owner,
    [{ name: DEFAULT_STREAM_NAME, description: DEFAULT_STREAM_DESCRIPTION, is_default: true }],
    { activeUsers },
  );
  const general = created[0] ?? existing[0]!;
  await doAddSubscriptions(
    deps,
    realm,
    [general],
    users.filter((u) => u.is_active),
    { activeUsers },
  );
  return general;
}

/**
 * Subscribes a newly created user to the realm's default streams (Zulip's
 * `bulk_add_subscriptions(..., from_user_creation=True)` in
 * `do_create_user`): one Query of the realm's streams, then one bulk
 * subscription. The new user gets no events of their own (they have no
 * event queue yet); other users get `peer_add`.
 * Preconditions: `user` is stored and active.
 * @returns the default streams the user was subscribed to
 */
export async function subscribeToDefaultStreams(deps: Deps, realm: RealmRecord, user: UserRecord): Promise<StreamRecord[]> {
  const streams = (await listRealmStreams(deps, realm.id)).filter((s) => s.is_default && !s.deactivated);
  if (streams.length === 0) return [];
  // Guests are not subscribed to private streams (default streams are public anyway).
  const visible = streams.filter((s) => !s.invite_only);
  await doAddSubscriptions(deps, realm, visible, [user], { fromUserCreation: true });
  return visible;
}
