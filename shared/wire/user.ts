import type { Config } from "../config.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import { isSystemBot } from "../data/users.js";
import { avatarUrlFor } from "../domain/avatar.js";
import { apiEmail, canSeeDeliveryEmail, EmailVisibility, emailVisibilityOf } from "../domain/email.js";
import { isRealmAdmin, Role, ROLE_VALUES, type RoleValue } from "../domain/roles.js";

export type { RoleValue } from "../domain/roles.js";

/** Zulip's `date_joined` format: ISO 8601 with microseconds and `+00:00`. */
export function isoTimestamp(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

/**
 * Whether `viewer` gets `target`'s `delivery_email` in a user object: only
 * when the target's email visibility is limited and the viewer is an
 * administrator with access under that policy (Zulip's rule before feature
 * level 163, https://zulip.com/api/get-user `delivery_email`; Zulip since
 * then always sends the field, null when hidden).
 */
export function includesDeliveryEmail(target: UserRecord, realm: RealmRecord, viewer: UserRecord | null): boolean {
  if (!viewer || !isRealmAdmin(viewer)) return false;
  if (emailVisibilityOf(target, realm) === EmailVisibility.EVERYONE) return false;
  return canSeeDeliveryEmail(viewer, target, realm);
}

/**
 * A user object as the API sends it (https://zulip.com/api/get-users
 * `members`, the `person` of `realm_user` `add` events, `POST /register`'s
 * `realm_users`): the fields of `userSchema` in `shared/events/schemas.ts`,
 * in the order they are sent.
 */
export interface WireUser {
  user_id: number;
  email: string;
  full_name: string;
  is_bot: boolean;
  /** Null for humans. */
  bot_type: number | null;
  role: RoleValue;
  is_owner: boolean;
  is_admin: boolean;
  is_billing_admin: boolean;
  is_guest: boolean;
  is_active: boolean;
  /** Null when the client computes the gravatar itself (`client_gravatar`). */
  avatar_url: string | null;
  avatar_version: number;
  timezone: string;
  /** ISO 8601 with microseconds ({@link isoTimestamp}). */
  date_joined: string;
  /**
   * System bots only (Zulip's `format_user_row`); not a field of the
   * OpenAPI `User`: system bots appear only in `cross_realm_bots`.
   */
  is_system_bot?: true;
  /** Bots only. */
  bot_owner_id?: number | null;
  delivery_email?: string;
  /** Custom profile field ID → value; humans only, when asked for. */
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

/** A `cross_realm_bots` entry of `POST /register` ({@link systemBotToWire}). */
export type WireSystemBot = WireUser & { is_system_bot: true; bot_owner_id: null };

function isRoleValue(role: number): role is RoleValue {
  return ROLE_VALUES.includes(role);
}

/**
 * A stored role as the wire's role value (https://zulip.com/api/get-user `role`).
 * @throws Error for a number that is no Zulip role (roles are checked before they are stored)
 */
export function wireRole(role: number): RoleValue {
  if (!isRoleValue(role)) throw new Error(`user role ${role} is not a Zulip role`);
  return role;
}

/**
 * The wire shape of a user (https://zulip.com/api/get-user `user`), as seen by `viewer`.
 *
 * - `email` is the API email (a fake address when the viewer may not see the real one).
 * - `delivery_email` only under {@link includesDeliveryEmail} (or when forced for one's own account).
 * - `avatar_url` is null for gravatars when the client computes them
 *   (`client_gravatar`) and can, i.e. the payload holds the real address.
 * - `bot_owner_id` for bots only; `profile_data` for non-bots only and only
 *   with `includeCustomProfileFields` (bots have no custom profile fields).
 * - `is_system_bot: true` for system bots only (Zulip's `format_user_row`);
 *   they appear only in `cross_realm_bots` ({@link systemBotToWire}), the
 *   OpenAPI `User` of realm listings has no such field.
 */
export function userToWire(
  user: UserRecord,
  realm: RealmRecord,
  viewer: UserRecord | null,
  config: Pick<Config, "ROOT_DOMAIN">,
  opts: {
    clientGravatar: boolean;
    includeCustomProfileFields?: boolean;
    /** Force `delivery_email` in (one's own account, `GET /users/me`) instead of {@link includesDeliveryEmail}. */
    withDeliveryEmail?: boolean;
  },
): WireUser {
  const email = apiEmail(user, realm, config);
  const withDeliveryEmail = opts.withDeliveryEmail ?? includesDeliveryEmail(user, realm, viewer);
  const emailVisible = email === user.delivery_email || withDeliveryEmail;
  const wire: WireUser = {
    user_id: user.user_id,
    email,
    full_name: user.full_name,
    is_bot: user.is_bot,
    bot_type: user.is_bot ? user.bot_type : null,
    role: wireRole(user.role),
    is_owner: user.role === Role.OWNER,
    is_admin: isRealmAdmin(user),
    is_billing_admin: user.is_billing_admin,
    is_guest: user.role === Role.GUEST,
    is_active: user.is_active,
    avatar_url: avatarUrlFor(user, { clientGravatar: opts.clientGravatar, emailVisible }),
    avatar_version: user.avatar_version,
    timezone: user.timezone,
    date_joined: isoTimestamp(user.date_joined),
  };
  if (user.is_bot && isSystemBot(user)) wire.is_system_bot = true;
  if (user.is_bot) wire.bot_owner_id = user.bot_owner_id;
  if (withDeliveryEmail) wire.delivery_email = user.delivery_email;
  if (opts.includeCustomProfileFields && !user.is_bot) wire.profile_data = user.profile_data ?? {};
  return wire;
}

/**
 * A `cross_realm_bots` entry of `POST /register` (https://zulip.com/api/register-queue,
 * `cross_realm_bots` items): the user object as the bot sees itself, so
 * with `delivery_email` and a server-computed `avatar_url`, plus
 * `is_system_bot: true` and `bot_owner_id: null` (Zulip hides that system
 * bots own themselves; Zulip's `get_cross_realm_dicts`). The same for every
 * viewer.
 */
export function systemBotToWire(
  bot: UserRecord,
  realm: RealmRecord,
  config: Pick<Config, "ROOT_DOMAIN">,
): WireSystemBot {
  return {
    ...userToWire(bot, realm, bot, config, { clientGravatar: false, withDeliveryEmail: true }),
    is_system_bot: true,
    bot_owner_id: null,
  };
}
