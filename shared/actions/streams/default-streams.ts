import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessStream } from "../../access/stream.js";
import { listRealmStreams, updateStreamFields } from "../../data/streams.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { InvalidChannelIdError, JsonableError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { listActiveRealmUsers, listRealmMembers } from "../../data/users.js";
import { doAddSubscriptions } from "./bulk-subscriptions.js";
import { doCreateStreams } from "./create-streams.js";
import { notifyDefaultStreams } from "./notify-streams.js";

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

/**
 * `POST /default_streams` (https://zulip.com/api/add-default-stream; Zulip's
 * `add_default_stream`): an administrator makes a stream one that new users
 * join. The administrator must have access to it as a user (a private
 * stream they are not subscribed to is an invalid ID), and private streams
 * are refused. Adding a default stream again changes nothing and sends
 * nothing; otherwise the realm's active non-guest users get
 * `default_streams` with the whole list.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws InvalidChannelIdError 400 `Invalid channel ID`
 * @throws JsonableError 400 `Private channels cannot be made default.`
 */
export async function checkAddDefaultStream(deps: Deps, realm: RealmRecord, user: UserRecord, streamId: number): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const { stream } = await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelIdError() });
  if (stream.invite_only) throw new JsonableError("Private channels cannot be made default.");
  await setDefaultStream(deps, realm, stream, true);
}

/**
 * `DELETE /default_streams` (https://zulip.com/api/remove-default-stream;
 * Zulip's `remove_default_stream`): an administrator removes a stream from
 * the default streams (administrators may name private streams here).
 * Removing a stream that is not a default changes nothing and sends nothing.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws InvalidChannelIdError 400 `Invalid channel ID`
 */
export async function checkRemoveDefaultStream(deps: Deps, realm: RealmRecord, user: UserRecord, streamId: number): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const { stream } = await accessStream(deps, user, realm, streamId, {
    allowRealmAdmin: true,
    error: () => new InvalidChannelIdError(),
  });
  await setDefaultStream(deps, realm, stream, false);
}

/** Stores a stream's `is_default` and, when it changed, sends `default_streams` (see {@link notifyDefaultStreams}). */
async function setDefaultStream(deps: Deps, realm: RealmRecord, stream: StreamRecord, isDefault: boolean): Promise<void> {
  if (stream.is_default === isDefault) return;
  const outcome = await updateStreamFields(deps, realm.id, stream.stream_id, { is_default: isDefault });
  if (outcome !== "updated") throw new InvalidChannelIdError();
  const activeUsers = await listActiveRealmUsers(deps, realm.id);
  await notifyDefaultStreams(deps, realm, activeUsers, [{ ...stream, is_default: isDefault }]);
}
