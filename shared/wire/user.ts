import type { Config } from "../config.js";
import type { RealmRecord } from "../data/realms.js";
import type { UserRecord } from "../data/users.js";
import { avatarUrlFor } from "../domain/avatar.js";
import { apiEmail, canSeeDeliveryEmail, EmailVisibility, emailVisibilityOf } from "../domain/email.js";
import { isRealmAdmin, Role } from "../domain/roles.js";

/** Zulip's `date_joined` format: ISO 8601 with microseconds and `+00:00`. */
export function isoTimestamp(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

/**
 * The wire shape of a user (spec "User (member)"), as seen by `viewer`.
 *
 * - `email` is the API email (a fake address when the viewer may not see the real one).
 * - `delivery_email` is present only when the user's email visibility is
 *   limited and the viewer may see it (the spec's rule), or for one's own account.
 * - `avatar_url` follows `client_gravatar` (null for gravatars the client computes).
 * - `profile_data` only with `includeCustomProfileFields`.
 */
export function userToWire(
  user: UserRecord,
  realm: RealmRecord,
  viewer: UserRecord | null,
  config: Pick<Config, "ROOT_DOMAIN">,
  opts: { clientGravatar: boolean; includeCustomProfileFields?: boolean },
): Record<string, unknown> {
  const email = apiEmail(user, realm, config);
  const emailIsReal = email === user.delivery_email;
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
    avatar_url: avatarUrlFor(user, { clientGravatar: opts.clientGravatar, emailVisible: emailIsReal }),
    avatar_version: user.avatar_version,
    timezone: user.timezone,
    date_joined: isoTimestamp(user.date_joined),
  };
  if (user.is_bot) wire.bot_owner_id = user.bot_owner_id;
  const limited = emailVisibilityOf(user, realm) !== EmailVisibility.EVERYONE;
  if (limited && viewer && canSeeDeliveryEmail(viewer, user, realm)) wire.delivery_email = user.delivery_email;
  if (opts.includeCustomProfileFields) wire.profile_data = user.profile_data ?? {};
  return wire;
}
