import type { Deps } from "../../deps.js";
import { JsonableError, NoSuchUserError } from "../../errors.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessUserById } from "../../access/user.js";
import { addMutedUser, removeMutedUser } from "../../data/muted-users.js";
import { isSystemBot } from "../../data/users.js";
import { doMarkAsRead } from "../messages/mark-as-read.js";
import { sendEvent } from "../../events/publish.js";
import { fetchMutedUserEntries } from "../../queries/muting/muting.js";

/**
 * Loads the user a mute request names (Zulip's `access_user_by_id` with
 * bots and deactivated users allowed). System bots are not users of the
 * realm, as in Zulip, where they live in another realm.
 * @throws NoSuchUserError 400 `No such user`
 */
async function accessMuteTarget(deps: Deps, realm: RealmRecord, me: UserRecord, userId: number): Promise<UserRecord> {
  const target = await accessUserById(deps, realm, me, userId, { allowBots: true, allowDeactivated: true, forAdmin: false });
  if (isSystemBot(target)) throw new NoSuchUserError();
  return target;
}

/**
 * Sends the caller's whole mute list to the caller's own clients
 * (https://zulip.com/api/get-events#muted_users; Zulip's `do_mute_user`
 * and `do_unmute_user` event). One Query, then the event.
 */
export async function notifyMutedUsers(deps: Deps, me: UserRecord): Promise<void> {
  const muted_users = await fetchMutedUserEntries(deps, me.user_id);
  await sendEvent(deps, { type: "muted_users", muted_users }, [me.user_id]);
}

/**
 * `POST /users/me/muted_users/{muted_user_id}` (https://zulip.com/api/mute-user;
 * Zulip's `mute_user` view and `do_mute_user`): stores the mute and the
 * muted user's reverse entry (new messages from them arrive read), sends
 * `muted_users`, then marks the caller's unread messages from the muted
 * user as read (Zulip's `do_mark_muted_user_messages_as_read`: one
 * `update_message_flags` event when any; a large backlog continues in
 * `mark_as_read` jobs).
 * @throws JsonableError 400 `Cannot mute self`, `No such user` (unknown or a system bot), `User already muted`
 */
export async function doMuteUser(deps: Deps, realm: RealmRecord, me: UserRecord, mutedUserId: number): Promise<void> {
  if (mutedUserId === me.user_id) throw new JsonableError("Cannot mute self");
  const target = await accessMuteTarget(deps, realm, me, mutedUserId);
  const timestamp = Math.floor(deps.clock.now() / 1000);
  const added = await addMutedUser(deps, realm.id, { user_id: me.user_id, muted_user_id: target.user_id, timestamp });
  if (!added) throw new JsonableError("User already muted");
  await notifyMutedUsers(deps, me);
  await doMarkAsRead(deps, realm, me, { kind: "sender", sender_id: target.user_id });
}

/**
 * `DELETE /users/me/muted_users/{muted_user_id}` (https://zulip.com/api/unmute-user;
 * Zulip's `unmute_user` view and `do_unmute_user`): removes the mute and
 * sends `muted_users`.
 * @throws JsonableError 400 `No such user` (unknown or a system bot), `User is not muted`
 */
export async function doUnmuteUser(deps: Deps, realm: RealmRecord, me: UserRecord, mutedUserId: number): Promise<void> {
  const target = await accessMuteTarget(deps, realm, me, mutedUserId);
  const removed = await removeMutedUser(deps, realm.id, me.user_id, target.user_id);
  if (!removed) throw new JsonableError("User is not muted");
  await notifyMutedUsers(deps, me);
}
