import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/realms.js";
import { listRealmUsers, type UserRecord } from "../../data/users.js";
import { accessUserByIdOrEmail } from "../../actions/users/access-user.js";
import { userToWire } from "../../wire/user.js";

/** Options shared by `GET /users` and `GET /users/{user_id}` (spec `GET /users`). */
export interface UserListOptions {
  /** @default true in the endpoints (feature level 92) */
  clientGravatar: boolean;
  /** @default false in the endpoints */
  includeCustomProfileFields: boolean;
}

/**
 * The body of `GET /users`: every user and bot of the realm, active or
 * deactivated, in user-ID order, as `viewer` may see them (spec "User
 * (member)"). One Query (paged by 1 MB) over the realm's user items.
 */
export async function getUsers(
  deps: Deps,
  realm: RealmRecord,
  viewer: UserRecord,
  opts: UserListOptions,
): Promise<{ members: Record<string, unknown>[] }> {
  const users = await listRealmUsers(deps, realm.id);
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
 * @throws NoSuchUserError 400 `No such user`
 */
export async function getUser(
  deps: Deps,
  realm: RealmRecord,
  viewer: UserRecord,
  idOrEmail: string,
  opts: UserListOptions,
): Promise<{ user: Record<string, unknown> }> {
  const target = await accessUserByIdOrEmail(deps, realm, viewer, idOrEmail, {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: false,
  });
  return {
    user: userToWire(target, realm, viewer, deps.config, {
      clientGravatar: opts.clientGravatar,
      includeCustomProfileFields: opts.includeCustomProfileFields,
    }),
  };
}
