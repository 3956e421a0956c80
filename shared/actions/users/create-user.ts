import { generateApiKey, hashApiKey } from "../../auth/api-key.js";
import { hashPassword } from "../../auth/password.js";
import type { Deps } from "../../deps.js";
import { JsonableError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { allocateIds } from "../../data/counters.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { getUserIdByEmail, listRealmMembers, putNewUser } from "../../data/users.js";
import { isValidEmailAddress } from "../../domain/email.js";
import { isRealmAdmin, Role } from "../../domain/roles.js";
import { subscribeToDefaultStreams } from "../streams/default-streams.js";
import { activeUserIds, notifyRealmUserAdd } from "./notify.js";
import { checkFullName, isStrongEnoughPassword } from "./validation.js";

export interface NewUser {
  email: string;
  full_name: string;
  /** @default Role.MEMBER */
  role?: number;
  /** Plain password; hashed with scrypt before storage. Omit for no password login. */
  password?: string;
  is_bot?: boolean;
  bot_type?: number | null;
  bot_owner_id?: number | null;
  timezone?: string;
  /**
   * A system bot (Zulip's cross-realm bots, e.g. Notification Bot): marked
   * `is_system_bot` on the record and announced to nobody, since Zulip
   * creates these in its internal realm and the organization's clients
   * learn of them from `POST /register`'s `cross_realm_bots`.
   */
  is_system_bot?: boolean;
  /**
   * `U` for a bot created with an uploaded avatar (`POST /bots` with a
   * file; the caller stores the images at version 1). @default "G"
   */
  avatar_source?: "G" | "U";
  /**
   * Whether a human joins the realm's default streams at creation; false for
   * an invitation without `include_realm_default_subscriptions`. @default true
   */
  default_streams?: boolean;
  /** A bot's default streams (`POST /bots`); stored on the record as given. */
  bot_defaults?: Pick<UserRecord, "default_sending_stream_id" | "default_events_register_stream_id" | "default_all_public_streams">;
}

/**
 * Creates a user or bot in a realm and tells the realm's active users with a
 * `realm_user` `add` event (Zulip's `do_create_user`); no event for a system
 * bot (`input.is_system_bot`).
 *
 * Human users are subscribed to the realm's default streams.
 *
 * Preconditions: the caller has checked permissions and validated the
 * email's and name's shape.
 * @returns the stored user (its `api_key` included)
 * @throws JsonableError 400 `Email '<email>' already in use` when the realm has that email
 */
export async function doCreateUser(deps: Deps, realm: RealmRecord, input: NewUser): Promise<UserRecord> {
  const [userId, passwordHash] = await Promise.all([
    allocateIds(deps, "user"),
    input.password ? hashPassword(input.password, deps.config.PASSWORD_HASH_LOG2_N) : Promise.resolve(null),
  ]);
  const apiKey = generateApiKey();
  const user: UserRecord = {
    realm_id: realm.id,
    user_id: userId,
    delivery_email: input.email,
    full_name: input.full_name,
    role: input.role ?? Role.MEMBER,
    is_active: true,
    is_bot: input.is_bot ?? false,
    bot_type: input.is_bot ? (input.bot_type ?? 1) : null,
    bot_owner_id: input.is_bot ? (input.bot_owner_id ?? null) : null,
    is_billing_admin: false,
    avatar_source: input.avatar_source ?? "G",
    avatar_version: 1,
    timezone: input.timezone ?? "",
    date_joined: Math.floor(deps.clock.now() / 1000),
    api_key: apiKey,
    password_hash: passwordHash,
    // Zulip copies the organization's defaults for new users into the account
    // (`copy_default_settings`); later changes of the defaults leave it alone.
    settings: { ...(realm.user_settings_defaults ?? {}) },
    profile_data: {},
    ...(input.is_system_bot ? { is_system_bot: true } : {}),
    ...(input.is_bot ? input.bot_defaults : {}),
  };
  if (!(await putNewUser(deps, user, hashApiKey(apiKey)))) {
    throw new JsonableError(`Email '${input.email}' already in use`);
  }
  if (user.is_system_bot) return user;
  await notifyRealmUserAdd(deps, realm, user, activeUserIds(await listRealmMembers(deps, realm.id)));
  // Humans join the realm's default streams at creation (Zulip's process_new_human_user),
  // after the realm_user add so that the peer_add events name a user clients know.
  if (!user.is_bot && input.default_streams !== false) await subscribeToDefaultStreams(deps, realm, user);
  return user;
}

/**
 * Validates a new account the way Zulip's `create_user_backend` does, then
 * creates it with {@link doCreateUser}. Used by `POST /users` and by the
 * management CLI, so both refuse the same input with the same words.
 *
 * Checks, in Zulip's order: the name (`checkFullName`), the address shape
 * (`Bad name or username`, the wording of Zulip's sign-up form), that the
 * address is free in the realm, and the password's strength.
 * @param input.password optional only for the CLI (accounts without password
 *   login); `POST /users` always passes one
 * @returns the stored user
 * @throws JsonableError 400 `Name too long!` / `Name must not be empty!` /
 *   `Invalid characters in name!` / `Invalid format!`, `Bad name or username`,
 *   `Email '<email>' already in use`, `The password is too weak.`
 */
export async function checkCreateUser(deps: Deps, realm: RealmRecord, input: NewUser): Promise<UserRecord> {
  const fullName = checkFullName(input.full_name);
  const email = input.email.trim();
  if (!isValidEmailAddress(email)) throw new JsonableError("Bad name or username");
  // A cheap early answer; putNewUser's conditional write is what makes the address unique.
  if ((await getUserIdByEmail(deps, realm.id, email)) !== undefined) {
    throw new JsonableError(`Email '${email}' already in use`);
  }
  if (input.password !== undefined && !isStrongEnoughPassword(input.password)) {
    throw new JsonableError("The password is too weak.");
  }
  return doCreateUser(deps, realm, { ...input, email, full_name: fullName });
}

/**
 * `POST /users` (https://zulip.com/api/create-user): an organization administrator
 * creates an account with a password.
 *
 * Zulip additionally requires the `can_create_users` permission, which is
 * granted only by a server administrator; this deployment has no such
 * separate grant, so organization administrators may create users.
 * @returns the new user's ID
 * @throws OrganizationAdministratorRequiredError 400 for anyone but an administrator
 * @throws JsonableError 400 as {@link checkCreateUser}
 */
export async function checkCreateUserByAdmin(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  input: { email: string; password: string; full_name: string },
): Promise<{ user_id: number }> {
  if (!isRealmAdmin(caller)) throw new OrganizationAdministratorRequiredError();
  const user = await checkCreateUser(deps, realm, { ...input, role: Role.MEMBER });
  return { user_id: user.user_id };
}
