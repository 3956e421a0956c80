import { generateApiKey, hashApiKey } from "../../auth/api-key.js";
import { hashPassword } from "../../auth/password.js";
import type { Deps } from "../../deps.js";
import { JsonableError } from "../../errors.js";
import { allocateIds } from "../../data/counters.js";
import type { RealmRecord } from "../../data/realms.js";
import { listRealmUsers, putNewUser, type UserRecord } from "../../data/users.js";
import { Role } from "../../domain/roles.js";
import { sendEvent } from "../../events/publish.js";
import { userToWire } from "../../wire/user.js";

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
}

/**
 * Creates a user or bot in a realm and tells the realm's active users with a
 * `realm_user` `add` event (Zulip's `do_create_user`).
 *
 * Preconditions: the caller has checked permissions and validated the
 * email's and name's shape.
 * @returns the stored user (its `api_key` included)
 * @throws JsonableError 400 `Email '<email>' already in use` when the realm has that email
 */
export async function doCreateUser(deps: Deps, realm: RealmRecord, input: NewUser): Promise<UserRecord> {
  const [userId, passwordHash] = await Promise.all([
    allocateIds(deps, "user"),
    input.password ? hashPassword(input.password) : Promise.resolve(null),
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
    avatar_source: "G",
    avatar_version: 1,
    timezone: input.timezone ?? "",
    date_joined: Math.floor(deps.clock.now() / 1000),
    api_key: apiKey,
    password_hash: passwordHash,
    settings: {},
    profile_data: {},
  };
  if (!(await putNewUser(deps, user, hashApiKey(apiKey)))) {
    throw new JsonableError(`Email '${input.email}' already in use`);
  }
  const audience = (await listRealmUsers(deps, realm.id)).filter((u) => u.is_active);
  await sendEvent(
    deps,
    {
      type: "realm_user",
      op: "add",
      person: userToWire(user, realm, null, deps.config, { clientGravatar: false, includeCustomProfileFields: true }),
    },
    audience.map((u) => u.user_id),
  );
  return user;
}
