import type { Config } from "../config.js";
import type { Deps } from "../deps.js";
import {
  InsufficientPermissionError,
  JsonableError,
  NoSuchUserError,
  OrganizationAdministratorRequiredError,
} from "../errors.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import { userByEmail, userById } from "../data/users.js";
import { canSeeDeliveryEmail, realmHost } from "../domain/email.js";
import { isRealmAdmin } from "../domain/roles.js";

/** What a caller may reach through {@link accessUserById} (Zulip's `access_user_by_id` flags). */
export interface AccessOptions {
  /** Deactivated targets are allowed; else 400 `User is deactivated`. */
  allowDeactivated: boolean;
  /** Bot targets are allowed; else 400 `No such user`. */
  allowBots: boolean;
  /**
   * The caller must be an organization administrator, else 400
   * `Insufficient permission`. (Zulip also lets a bot's owner administer
   * that bot here; this server's user endpoints are administrators-only, as
   * https://zulip.com/api/update-user describes them.)
   */
  forAdmin: boolean;
}

/**
 * Zulip's `access_user_common`: the flag checks and the permission check,
 * in Zulip's order, on an already loaded target.
 */
export function checkUserAccess(target: UserRecord, caller: UserRecord, opts: AccessOptions): UserRecord {
  if (target.is_bot && !opts.allowBots) throw new NoSuchUserError();
  if (!target.is_active && !opts.allowDeactivated) throw new JsonableError("User is deactivated");
  // Reading users is open to everyone while the realm's can_access_all_users_group is
  // "everyone" (Zulip's default, and the only value we support): no check for reads.
  if (opts.forAdmin && !isRealmAdmin(caller)) throw new InsufficientPermissionError();
  return target;
}

/**
 * Loads a user of the caller's realm by ID together with the permission
 * check (Zulip's `access_user_by_id`). One strongly consistent read.
 * @throws NoSuchUserError 400 `No such user` for an unknown ID (or a bot without `allowBots`)
 * @throws JsonableError 400 `User is deactivated`, `Insufficient permission` (see {@link AccessOptions})
 */
export async function accessUserById(
  deps: Pick<Deps, "db" | "table">,
  realm: RealmRecord,
  caller: UserRecord,
  userId: number,
  opts: AccessOptions,
): Promise<UserRecord> {
  const target = await userById(deps, realm.id, userId);
  if (!target) throw new NoSuchUserError();
  return checkUserAccess(target, caller, opts);
}

/**
 * The user ID a fake API email (`user<id>@<realm host>`, see `apiEmail`)
 * stands for, or undefined when the address is not of that shape.
 */
export function userIdFromFakeEmail(
  email: string,
  realm: Pick<RealmRecord, "string_id">,
  config: Pick<Config, "ROOT_DOMAIN">,
): number | undefined {
  const domain = realmHost(realm, config).replace(/:\d+$/, "").toLowerCase();
  const at = email.lastIndexOf("@");
  if (at < 0 || email.slice(at + 1).toLowerCase() !== domain) return undefined;
  const match = /^user(\d{1,15})$/i.exec(email.slice(0, at));
  return match ? Number(match[1]) : undefined;
}

/**
 * Loads a user by Zulip API email (Zulip's `access_user_by_email`, used by
 * `GET /users/{email}`): a fake `user<id>@…` address is resolved by ID;
 * a real address only finds users whose email visibility lets the caller
 * see it, so the endpoint does not reveal who has an account. Two reads.
 * @throws NoSuchUserError 400 `No such user`
 */
export async function accessUserByEmail(
  deps: Pick<Deps, "db" | "table" | "config">,
  realm: RealmRecord,
  caller: UserRecord,
  email: string,
  opts: AccessOptions,
): Promise<UserRecord> {
  const fakeId = userIdFromFakeEmail(email.trim(), realm, deps.config);
  if (fakeId !== undefined) return accessUserById(deps, realm, caller, fakeId, opts);
  const target = await userByEmail(deps, realm.id, email.trim());
  if (!target || !canSeeDeliveryEmail(caller, target, realm)) throw new NoSuchUserError();
  return checkUserAccess(target, caller, opts);
}

/**
 * Loads a user named by the `{user_id}` path value, which holds a user ID
 * or an email (API Gateway cannot route `/users/{user_id}` and
 * `/users/{email}` apart; see `shared/routes.ts`). All digits means an ID,
 * as Zulip's `<int:user_id>` route converter decides.
 */
export async function accessUserByIdOrEmail(
  deps: Pick<Deps, "db" | "table" | "config">,
  realm: RealmRecord,
  caller: UserRecord,
  idOrEmail: string,
  opts: AccessOptions,
): Promise<UserRecord> {
  if (/^\d{1,15}$/.test(idOrEmail)) return accessUserById(deps, realm, caller, Number(idOrEmail), opts);
  return accessUserByEmail(deps, realm, caller, idOrEmail, opts);
}

/**
 * Zulip's `@require_realm_admin`: the caller must be an organization
 * administrator (or owner). Checked before the parameters are parsed.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 */
export function requireRealmAdmin(caller: UserRecord): void {
  if (!isRealmAdmin(caller)) throw new OrganizationAdministratorRequiredError();
}

/**
 * {@link accessUserById} on a realm's user list an action has already read
 * (it needs the list anyway, for event audiences or owner counts).
 */
export function accessUserInList(
  users: UserRecord[],
  caller: UserRecord,
  userId: number,
  opts: AccessOptions,
): UserRecord {
  const target = users.find((u) => u.user_id === userId);
  if (!target) throw new NoSuchUserError();
  return checkUserAccess(target, caller, opts);
}
