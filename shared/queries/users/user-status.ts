import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { accessUserById } from "../../access/user.js";
import { userStatusWire, type UserStatusWire } from "../../wire/user-status.js";

/**
 * `GET /users/{user_id}/status` (https://zulip.com/api/get-user-status;
 * Zulip's `get_status_backend`): the status a user of the organization set,
 * `{}` for a user who never set one. Deactivated users and bots are found.
 * One strongly consistent GetItem.
 * @throws NoSuchUserError 400 `No such user` for an ID of no user of the organization
 */
export async function fetchUserStatus(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  userId: number,
): Promise<{ status: UserStatusWire }> {
  const target = await accessUserById(deps, realm, caller, userId, {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: false,
  });
  return { status: target.status_timestamp === undefined ? {} : userStatusWire(target, realm) };
}
