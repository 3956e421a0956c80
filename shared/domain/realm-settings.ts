import type { RealmRecord } from "../data/records/realm.js";

import { Role } from "./roles.js";

/**
 * Organization settings and their defaults (Zulip's `Realm` model fields
 * that `POST /register` reports as `realm_<name>`), as of feature level 283.
 *
 * A realm record stores in `settings` only the values that differ from
 * these defaults, keyed without the `realm_` prefix; {@link realmSettings}
 * merges them. Group-valued settings ("group-setting values", feature
 * level 221+) hold the ID of one of the realm's system groups, see
 * {@link systemGroupId}.
 */
export const REALM_SETTING_DEFAULTS = {
  add_custom_emoji_policy: 1,
  allow_edit_history: true,
  allow_message_editing: true,
  avatar_changes_disabled: false,
  bot_creation_policy: 1,
  create_private_stream_policy: 1,
  create_public_stream_policy: 1,
  create_web_public_stream_policy: 7,
  default_code_block_language: "",
  default_language: "en",
  delete_own_message_policy: 2,
  digest_emails_enabled: false,
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  edit_topic_policy: 5,
  email_changes_disabled: false,
  emails_restricted_to_domains: false,
  enable_guest_user_indicator: true,
  // No read-receipts endpoint yet: clients must not offer the feature.
  enable_read_receipts: false,
  enable_spectator_access: false,
  giphy_rating: 2,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  invite_to_realm_policy: 1,
  invite_to_stream_policy: 1,
  jitsi_server_url: null,
  mandatory_topics: false,
  message_content_allowed_in_email_notifications: true,
  /** Seconds; null means no limit. */
  message_content_delete_limit_seconds: 600,
  /** Seconds; null means no limit. */
  message_content_edit_limit_seconds: 600,
  /** -1: keep forever (feature level 22+). */
  message_retention_days: -1,
  move_messages_between_streams_limit_seconds: 604_800,
  move_messages_between_streams_policy: 4,
  move_messages_within_stream_limit_seconds: 604_800,
  name_changes_disabled: false,
  new_stream_announcements_stream_id: -1,
  org_type: 0,
  presence_disabled: false,
  require_unique_names: false,
  send_welcome_emails: true,
  signup_announcements_stream_id: -1,
  user_group_edit_policy: 1,
  video_chat_provider: 1,
  waiting_period_threshold: 0,
  want_advertise_in_communities_directory: false,
  wildcard_mention_policy: 5,
  zulip_update_announcements_stream_id: -1,
} as const satisfies Record<string, unknown>;

export type RealmSettingName = keyof typeof REALM_SETTING_DEFAULTS;

/** Organization-level limits (Zulip's constants of the same names; https://zulip.com/api/register-queue `max_*_length`). */
export const REALM_LIMITS = {
  /** Characters. */
  max_stream_name_length: 60,
  /** Characters. */
  max_stream_description_length: 1024,
  /** Characters (Zulip's `MAX_TOPIC_NAME_LENGTH`: 60). */
  max_topic_length: 60,
  /** The 10,000-byte content limit, reported as Zulip reports `max_message_length` (https://zulip.com/api/send-message). */
  max_message_length: 10_000,
} as const;

/**
 * Zulip's system groups (feature level 221+): every organization has them,
 * they nest (owners ⊂ administrators ⊂ moderators ⊂ full members ⊂ members
 * ⊂ everyone ⊂ internet) and group-valued settings name them by ID.
 */
export const SYSTEM_GROUPS = [
  { name: "role:internet", description: "Everyone on the internet" },
  { name: "role:owners", description: "Owners of this organization" },
  { name: "role:administrators", description: "Administrators of this organization, including owners" },
  { name: "role:moderators", description: "Moderators of this organization, including administrators" },
  { name: "role:fullmembers", description: "Members of this organization, not including new accounts and guests" },
  { name: "role:members", description: "Members of this organization, not including guests" },
  { name: "role:everyone", description: "Everyone in this organization, including guests" },
  { name: "role:nobody", description: "Nobody" },
] as const;

export type SystemGroupName = (typeof SYSTEM_GROUPS)[number]["name"];

/**
 * First ID of the system-group ID space. System groups are not stored:
 * their IDs are derived from the realm ID, far above any ID the `user_group`
 * counter will hand out, so user-created groups never collide with them.
 */
export const SYSTEM_GROUP_ID_BASE = 1_000_000_000;

/** The ID of one of a realm's system groups: `1e9 + realmId * 16 + index`. */
export function systemGroupId(realmId: number, name: SystemGroupName): number {
  const index = SYSTEM_GROUPS.findIndex((g) => g.name === name);
  return SYSTEM_GROUP_ID_BASE + realmId * 16 + index;
}

/** Group-valued realm settings (value: the system group they default to). */
export const REALM_GROUP_SETTING_DEFAULTS = {
  can_access_all_users_group: "role:everyone",
  can_create_private_channel_group: "role:members",
  can_create_public_channel_group: "role:members",
  can_create_web_public_channel_group: "role:owners",
  can_delete_any_message_group: "role:administrators",
  create_multiuse_invite_group: "role:administrators",
  direct_message_initiator_group: "role:everyone",
  direct_message_permission_group: "role:everyone",
} as const satisfies Record<string, SystemGroupName>;

/**
 * The effective settings of a realm: stored overrides over
 * {@link REALM_SETTING_DEFAULTS}, plus the group-valued settings as group IDs.
 * Keys have no `realm_` prefix.
 */
export function realmSettings(realm: Pick<RealmRecord, "id" | "settings">): Record<string, unknown> {
  const groups: Record<string, number> = {};
  for (const [key, group] of Object.entries(REALM_GROUP_SETTING_DEFAULTS)) groups[key] = systemGroupId(realm.id, group);
  return { ...REALM_SETTING_DEFAULTS, ...groups, ...(realm.settings ?? {}) };
}

/**
 * The system group a role is a direct member of (the narrowest one
 * containing it). Bots count by their role. With the default
 * `waiting_period_threshold` of 0 days every member is a full member.
 */
function directGroupOf(role: number): SystemGroupName {
  if (role === Role.OWNER) return "role:owners";
  if (role === Role.ADMINISTRATOR) return "role:administrators";
  if (role === Role.MODERATOR) return "role:moderators";
  if (role === Role.GUEST) return "role:everyone";
  return "role:fullmembers";
}

/**
 * The realm's system groups in the `realm_user_groups` shape of
 * `POST /register` (feature level 283): direct members by role, and the
 * nesting through `direct_subgroup_ids`.
 * @param users the realm's active users
 */
export function systemUserGroups(
  realmId: number,
  users: { user_id: number; role: number; is_bot: boolean }[],
): Record<string, unknown>[] {
  const id = (name: SystemGroupName) => systemGroupId(realmId, name);
  const parent: Partial<Record<SystemGroupName, SystemGroupName>> = {
    "role:internet": "role:everyone",
    "role:everyone": "role:members",
    "role:members": "role:fullmembers",
    "role:fullmembers": "role:moderators",
    "role:moderators": "role:administrators",
    "role:administrators": "role:owners",
  };
  return SYSTEM_GROUPS.map((g) => ({
    id: id(g.name),
    name: g.name,
    description: g.description,
    members: users.filter((u) => directGroupOf(u.role) === g.name).map((u) => u.user_id),
    direct_subgroup_ids: parent[g.name] ? [id(parent[g.name]!)] : [],
    is_system_group: true,
    // Zulip's `default_for_system_groups` of both settings: nobody manages or mentions a system group.
    can_manage_group: id("role:nobody"),
    can_mention_group: id("role:nobody"),
  }));
}

/** The least-privileged role each system group contains (lower role numbers are more privileged). */
const GROUP_MAX_ROLE: Record<SystemGroupName, number | null> = {
  "role:internet": Role.GUEST,
  "role:owners": Role.OWNER,
  "role:administrators": Role.ADMINISTRATOR,
  "role:moderators": Role.MODERATOR,
  "role:fullmembers": Role.MEMBER,
  "role:members": Role.MEMBER,
  "role:everyone": Role.GUEST,
  "role:nobody": null,
};

/**
 * The group-valued realm settings that must name a system group (Zulip's
 * `require_system_group` at feature level 283); the others may also name
 * one of the realm's user-created groups.
 */
export const REALM_GROUP_SETTINGS_REQUIRING_SYSTEM_GROUP: ReadonlySet<string> = new Set([
  "can_access_all_users_group",
  "can_create_web_public_channel_group",
  "create_multiuse_invite_group",
]);

/** The system group an ID names in a realm, or undefined (a user-created group or no group). */
function systemGroupAt(realmId: number, groupId: unknown): (typeof SYSTEM_GROUPS)[number] | undefined {
  if (typeof groupId !== "number") return undefined;
  const index = groupId - SYSTEM_GROUP_ID_BASE - realmId * 16;
  return index >= 0 && index < SYSTEM_GROUPS.length ? SYSTEM_GROUPS[index] : undefined;
}

/**
 * Whether a group-valued realm setting names a user-created group, whose
 * members only the realm's group graph knows: callers read the groups for
 * {@link realmGroupSettingAllows} exactly then.
 */
export function realmGroupSettingNamesUserGroup(
  realm: Pick<RealmRecord, "id" | "settings">,
  setting: keyof typeof REALM_GROUP_SETTING_DEFAULTS,
): boolean {
  const value = realmSettings(realm)[setting];
  return typeof value === "number" && systemGroupAt(realm.id, value) === undefined;
}

/**
 * Whether a user belongs to the group a group-valued realm setting names
 * (for example `can_create_public_channel_group`; Zulip's
 * `user_has_permission_for_group_setting`): a system group by role; a
 * user-created group by membership, recursively through subgroups, which
 * needs `isMember` (from the realm's group graph). Without it, or for an
 * unknown group, the setting grants nothing. `role:fullmembers` also needs
 * `user.fullMember` not to be false (see {@link isFullMember}).
 * @param isMember whether the user belongs, recursively, to a user-created group ID
 */
export function realmGroupSettingAllows(
  realm: Pick<RealmRecord, "id" | "settings">,
  setting: keyof typeof REALM_GROUP_SETTING_DEFAULTS,
  user: { role: number; fullMember?: boolean },
  isMember?: (groupId: number) => boolean,
): boolean {
  const value = realmSettings(realm)[setting];
  const group = systemGroupAt(realm.id, value);
  if (!group) return typeof value === "number" && isMember !== undefined && isMember(value);
  if (group.name === "role:fullmembers" && user.fullMember === false) return false;
  const maxRole = GROUP_MAX_ROLE[group.name];
  return maxRole !== null && user.role <= maxRole;
}

/**
 * Whether a user passes one of Zulip's integer permission policies
 * (`invite_to_stream_policy`, `invite_to_realm_policy`, …): 1 members,
 * 2 administrators, 3 full members, 4 moderators, 5 everyone, 6 nobody.
 * @param fullMember whether the user is a full member (see {@link isFullMember}); only policy 3 reads it
 */
export function rolePolicyAllows(policy: number, user: { role: number }, fullMember = true): boolean {
  switch (policy) {
    case 1:
      return user.role <= Role.MEMBER;
    case 3:
      return user.role <= Role.MEMBER && fullMember;
    case 2:
      return user.role <= Role.ADMINISTRATOR;
    case 4:
      return user.role <= Role.MODERATOR;
    case 5:
      return true;
    default:
      return false;
  }
}

/**
 * Whether a user is a full member (Zulip's `UserProfile.is_provisional_member`
 * negated): moderators and above always; guests never; members and bots once
 * their account is at least the realm's `waiting_period_threshold` whole
 * days old (`date_joined`, UNIX seconds).
 * @param nowSeconds UNIX seconds (the deps clock)
 */
export function isFullMember(
  realm: Pick<RealmRecord, "id" | "settings">,
  user: { role: number; date_joined: number },
  nowSeconds: number,
): boolean {
  if (user.role <= Role.MODERATOR) return true;
  if (user.role === Role.GUEST) return false;
  const days = Math.floor((nowSeconds - user.date_joined) / 86_400);
  return days >= Number(realmSettings(realm).waiting_period_threshold);
}

/** Zulip's `Realm.WILDCARD_MENTION_THRESHOLD`: wildcard mentions reaching at most this many users are always allowed. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/**
 * Zulip's `wildcard_mention_policy_authorizes_user`: the realm's
 * `wildcard_mention_policy` (1 everyone, 2 members, 3 full members,
 * 5 administrators, 6 nobody, 7 moderators) for a sender.
 * @param nowSeconds UNIX seconds (full membership, see {@link isFullMember})
 */
export function wildcardMentionPolicyAllows(
  realm: Pick<RealmRecord, "id" | "settings">,
  user: { role: number; date_joined: number },
  nowSeconds: number,
): boolean {
  switch (Number(realmSettings(realm).wildcard_mention_policy)) {
    case 1:
      return true;
    case 2:
      return user.role <= Role.MEMBER;
    case 3:
      return user.role <= Role.MEMBER && isFullMember(realm, user, nowSeconds);
    case 5:
      return user.role <= Role.ADMINISTRATOR;
    case 7:
      return user.role <= Role.MODERATOR;
    default:
      return false;
  }
}
