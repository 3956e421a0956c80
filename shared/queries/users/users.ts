import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { NoSuchUserError } from "../../errors.js";
import { isSystemBot, listRealmMembers } from "../../data/users.js";
import { accessUserByIdOrEmail } from "../../access/user.js";
import { userToWire, type WireUser } from "../../wire/user.js";

/** Options shared by `GET /users` and `GET /users/{user_id}` (https://zulip.com/api/get-users). */
export interface UserListOptions {
  /** @default true in the endpoints (feature level 92) */
  clientGravatar: boolean;
  /** @default false in the endpoints */
  includeCustomProfileFields: boolean;
}

/**
 * The body of `GET /users` (https://zulip.com/api/get-users): every user
 * and bot of the realm, active or deactivated, in user-ID order, as
 * `viewer` may see them ({@link userToWire}). One Query (paged by 1 MB) over the realm's user items.
 * System bots are not listed: Zulip's `get_users_for_api` lists the
 * realm's users only, and system bots live in its internal realm.
 */
export async function fetchUsers(
  deps: Deps,
  realm: RealmRecord,
  viewer: UserRecord,
  opts: UserListOptions,
): Promise<{ members: WireUser[] }> {
  const users = await listRealmMembers(deps, realm.id);
  return {
    members: users.map((u) =>
      userToWire(u, realm, viewer, deps.config, {
        clientGravatar: opts.clientGravatar,
        includeCustomProfileFields: opts.includeCustomProfileFields,
      }),
    ),
  };
}

/**
 * The body of `GET /users/{user_id}` and `GET /users/{email}` (one route,
 * see `shared/routes.ts`): `{user}` for one user or bot, active or not.
 * @param idOrEmail the path value: a user ID, or a Zulip API email
 * @throws NoSuchUserError 400 `No such user`, also for a system bot (Zulip's
 *   `access_user_by_id`/`access_user_by_email` look in the caller's realm
 *   only, and system bots live in its internal realm)
 */
export async function fetchUser(
  deps: Deps,
  realm: RealmRecord,
  viewer: UserRecord,
  idOrEmail: string,
  opts: UserListOptions,
): Promise<{ user: WireUser }> {
  const target = await accessUserByIdOrEmail(deps, realm, viewer, idOrEmail, {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: false,
  });
  if (isSystemBot(target)) throw new NoSuchUserError();
  return {
    user: userToWire(target, realm, viewer, deps.config, {
      clientGravatar: opts.clientGravatar,
      includeCustomProfileFields: opts.includeCustomProfileFields,
    }),
  };
}
