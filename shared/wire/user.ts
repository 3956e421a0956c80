import type { Config } from "../config.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import { isSystemBot } from "../data/users.js";
import { avatarUrlFor } from "../domain/avatar.js";
import { apiEmail, canSeeDeliveryEmail, EmailVisibility, emailVisibilityOf } from "../domain/email.js";
import { isRealmAdmin, Role } from "../domain/roles.js";

/** Zulip's `date_joined` format: ISO 8601 with microseconds and `+00:00`. */
export function isoTimestamp(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

/**
 * Whether `viewer` gets `target`'s `delivery_email` in a user object. The
 * spec ("User (member)": `delivery_email`) sends it only when the target's
 * email visibility is limited and the viewer is an administrator with access
 * under that policy. (Zulip since feature level 163 always sends the field,
 * null when hidden; the spec's rule is the one we follow.)
 */
export function includesDeliveryEmail(target: UserRecord, realm: RealmRecord, viewer: UserRecord | null): boolean {
  if (!viewer || !isRealmAdmin(viewer)) return false;
  if (emailVisibilityOf(target, realm) === EmailVisibility.EVERYONE) return false;
  return canSeeDeliveryEmail(viewer, target, realm);
}

/**
 * The wire shape of a user (spec "User (member)"), as seen by `viewer`.
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
): Record<string, unknown> {
  const email = apiEmail(user, realm, config);
  const withDeliveryEmail = opts.withDeliveryEmail ?? includesDeliveryEmail(user, realm, viewer);
  const emailVisible = email === user.delivery_email || withDeliveryEmail;
  const wire: Record<string, unknown> = {
    user_id: user.user_id,
    email,
    full_name: user.full_name,
    is_bot: user.is_bot,
    bot_type: user.is_bot ? user.bot_type : null,
    role: user.role,
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
 * A `cross_realm_bots` entry of `POST /register` (OpenAPI `register-queue`,
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
): Record<string, unknown> {
  return {
    ...userToWire(bot, realm, bot, config, { clientGravatar: false, withDeliveryEmail: true }),
    is_system_bot: true,
    bot_owner_id: null,
  };
}
