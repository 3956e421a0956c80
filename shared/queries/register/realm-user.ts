import type { Config } from "../../config.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { isSystemBot } from "../../data/users.js";
import { avatarUrlFor, mediumAvatarUrlFor } from "../../domain/avatar.js";
import { apiEmail } from "../../domain/email.js";
import { realmGroupSettingAllows, realmSettings, rolePolicyAllows } from "../../domain/realm-settings.js";
import { isGuest, isRealmAdmin, Role } from "../../domain/roles.js";
import { systemBotToWire, userToWire } from "../../wire/user.js";

/** The group-valued settings `realm_user`'s stream-creation flags read (their groups are read only when user-created). */
export const STREAM_CREATION_SETTINGS = ["can_create_public_channel_group", "can_create_private_channel_group"] as const;

/**
 * The `realm_user` fetch type of `POST /register`: every user of the
 * organization (`realm_users` active, `realm_non_active_users`
 * deactivated; bots included), the system bots in `cross_realm_bots`
 * (sorted by name as Zulip's `get_cross_realm_dicts`; only those created so
 * far, i.e. Notification Bot once it has posted) and never among the
 * realm's users, and the caller's own identity and permissions at top level
 * (OpenAPI `register-queue`: `user_id`, `email`, `delivery_email`,
 * `full_name`, `is_admin`, …, `can_create_streams`, …).
 * @param opts.isMember membership of user-created groups (when a stream-creation setting names one)
 * @param opts.fullMember whether the caller is past the realm's waiting period (`isFullMember`)
 * @param users every user record of the realm, system bots included (one
 *   Query, shared with other fetch types)
 */
export function realmUserInitialState(
  realm: RealmRecord,
  me: UserRecord,
  users: UserRecord[],
  config: Pick<Config, "ROOT_DOMAIN">,
  opts: { clientGravatar: boolean; isMember?: (groupId: number) => boolean; fullMember?: boolean },
): Record<string, unknown> {
  const wire = (u: UserRecord) =>
    userToWire(u, realm, me, config, { clientGravatar: opts.clientGravatar, includeCustomProfileFields: true });
  const settings = realmSettings(realm);
  const who = { role: me.role, fullMember: opts.fullMember };
  const canCreatePublic = !isGuest(me) && realmGroupSettingAllows(realm, "can_create_public_channel_group", who, opts.isMember);
  const canCreatePrivate = !isGuest(me) && realmGroupSettingAllows(realm, "can_create_private_channel_group", who, opts.isMember);
  const ownAvatar = avatarUrlFor(me, { clientGravatar: false, emailVisible: true });
  const members = users.filter((u) => !isSystemBot(u));
  const systemBots = users
    .filter((u) => isSystemBot(u))
    .sort((a, b) => (a.full_name < b.full_name ? -1 : a.full_name > b.full_name ? 1 : a.user_id - b.user_id));
  return {
    realm_users: members.filter((u) => u.is_active).map(wire),
    realm_non_active_users: members.filter((u) => !u.is_active).map(wire),
    cross_realm_bots: systemBots.map((b) => systemBotToWire(b, realm, config)),
    user_id: me.user_id,
    email: apiEmail(me, realm, config),
    delivery_email: me.delivery_email,
    full_name: me.full_name,
    avatar_source: me.avatar_source,
    avatar_url: ownAvatar,
    avatar_url_medium: mediumAvatarUrlFor(me),
    is_admin: isRealmAdmin(me),
    is_owner: me.role === Role.OWNER,
    is_billing_admin: me.is_billing_admin,
    is_moderator: me.role === Role.MODERATOR,
    is_guest: me.role === Role.GUEST,
    can_create_streams: canCreatePublic || canCreatePrivate,
    can_create_public_streams: canCreatePublic,
    can_create_private_streams: canCreatePrivate,
    can_create_web_public_streams: realmGroupSettingAllows(realm, "can_create_web_public_channel_group", me),
    can_subscribe_other_users: rolePolicyAllows(Number(settings.invite_to_stream_policy), me),
    can_invite_others_to_realm: rolePolicyAllows(Number(settings.invite_to_realm_policy), me),
  };
}
