/**
 * Who may do what with streams, as the server decides it
 * (https://zulip.com/help/channel-permissions, https://zulip.com/help/configure-who-can-create-channels):
 * the checks the channel settings use to disable a control and say why
 * before the person tries. The server still decides; its refusal is shown too.
 */
import { checkRolePolicy, isFullMemberAt, ROLE } from "./roles.js";
import type { StreamPrivacy } from "./channels.js";
import type { SubscriptionWireObject } from "./types.js";

/** A user group as `GET /user_groups` lists it (https://zulip.com/api/get-user-groups). */
export interface UserGroup {
  id: number;
  name: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
}

/** A group-setting value: a group's ID, or an anonymous group of members and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** The reader as the checks need them. */
export interface Reader {
  userId: number;
  /** Organization role (100 owner … 600 guest). */
  role: number;
  /** False for a member still in the organization's waiting period. */
  fullMember: boolean;
}

/** The least-privileged role each system group holds (lower numbers carry more rights); null: nobody. */
const SYSTEM_GROUP_MAX_ROLE: Record<string, number | null> = {
  "role:internet": ROLE.guest,
  "role:everyone": ROLE.guest,
  "role:members": ROLE.member,
  "role:fullmembers": ROLE.member,
  "role:moderators": ROLE.moderator,
  "role:administrators": ROLE.administrator,
  "role:owners": ROLE.owner,
  "role:nobody": null,
};

/**
 * Whether the reader belongs to the group a group-valued setting names
 * (Zulip's `user_has_permission_for_group_setting`): a system group by role
 * (`role:fullmembers` also needs a full member), any other group by
 * membership, recursively through subgroups. An unknown group grants nothing.
 */
export function inGroupSetting(value: GroupSettingValue | undefined, reader: Reader, groups: readonly UserGroup[]): boolean {
  if (value === undefined) return false;
  const byId = new Map(groups.map((g) => [g.id, g]));
  const seen = new Set<number>();
  const inGroup = (id: number): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const g = byId.get(id);
    if (!g) return false;
    if (g.is_system_group && g.name in SYSTEM_GROUP_MAX_ROLE) {
      const max = SYSTEM_GROUP_MAX_ROLE[g.name];
      if (max === null || max === undefined || reader.role > max) return false;
      return g.name !== "role:fullmembers" || reader.fullMember || reader.role < ROLE.member;
    }
    return g.members.includes(reader.userId) || g.direct_subgroup_ids.some(inGroup);
  };
  if (typeof value === "number") return inGroup(value);
  return value.direct_members.includes(reader.userId) || value.direct_subgroups.some(inGroup);
}

/** The name of the group a setting names, for a reason shown to the person ("Administrators", …). */
export function groupSettingName(value: GroupSettingValue | undefined, groups: readonly UserGroup[]): string {
  if (typeof value !== "number") return "a custom group";
  const g = groups.find((x) => x.id === value);
  if (!g) return "a group";
  const names: Record<string, string> = {
    "role:internet": "everyone",
    "role:everyone": "everyone",
    "role:members": "members",
    "role:fullmembers": "full members",
    "role:moderators": "moderators and administrators",
    "role:administrators": "administrators",
    "role:owners": "owners",
    "role:nobody": "nobody",
  };
  return names[g.name] ?? g.name;
}

/** The realm settings the checks read (register's `realm_*` names). */
type Realm = Readonly<Record<string, unknown>>;

/**
 * Why the reader may not create (or turn a stream into) a stream of a
 * privacy, or null when they may: guests never; public streams per
 * `realm_can_create_public_channel_group`, private ones per
 * `realm_can_create_private_channel_group`, web-public ones only when
 * `realm_enable_spectator_access` and per `realm_can_create_web_public_channel_group`.
 */
export function createRefusal(privacy: StreamPrivacy, reader: Reader, realm: Realm, groups: readonly UserGroup[]): string | null {
  if (reader.role >= ROLE.guest) return "Guests cannot create channels.";
  const setting =
    privacy === "web-public"
      ? "realm_can_create_web_public_channel_group"
      : privacy === "public"
        ? "realm_can_create_public_channel_group"
        : "realm_can_create_private_channel_group";
  if (privacy === "web-public" && realm.realm_enable_spectator_access !== true) return "Web-public channels are not enabled in this organization.";
  const value = realm[setting] as GroupSettingValue | undefined;
  if (inGroupSetting(value, reader, groups)) return null;
  const kind = privacy === "web-public" ? "web-public" : privacy === "public" ? "public" : "private";
  return `Only ${groupSettingName(value, groups)} can create ${kind} channels in this organization.`;
}

/**
 * Why the reader may not change a stream's name, description, privacy or
 * posting policy, or null: organization administrators and the stream's own
 * administrators (subscription `role` 20) may.
 */
export function editRefusal(reader: Reader, sub: Pick<SubscriptionWireObject, "role"> | undefined): string | null {
  if (reader.role <= ROLE.administrator) return null;
  if (sub?.role === 20) return null;
  return "Only organization administrators and channel administrators can change this channel's settings.";
}

/** Why the reader may not unsubscribe others from a stream (the same people as {@link editRefusal}), or null. */
export function removeSubscribersRefusal(reader: Reader, sub: Pick<SubscriptionWireObject, "role"> | undefined): string | null {
  if (editRefusal(reader, sub) === null) return null;
  return "Only organization administrators and channel administrators can unsubscribe other people.";
}

/** Zulip's role policies (`realm_invite_to_stream_policy`): 1 members, 2 administrators, 3 full members, 4 moderators, 5 everyone. */
export function rolePolicyAllows(policy: number, reader: Reader): boolean {
  return checkRolePolicy(policy, reader.role, reader.fullMember);
}

const POLICY_PEOPLE: Record<number, string> = { 1: "members", 2: "administrators", 3: "full members", 4: "moderators and administrators" };

/** Why the reader may not subscribe other people to streams (`realm_invite_to_stream_policy`), or null. */
export function subscribeOthersRefusal(reader: Reader, realm: Realm): string | null {
  const policy = Number(realm.realm_invite_to_stream_policy ?? 1);
  if (rolePolicyAllows(policy, reader)) return null;
  return `Only ${POLICY_PEOPLE[policy] ?? "some people"} can add other people to channels in this organization.`;
}

/**
 * Whether a member is past the organization's waiting period
 * (`realm_waiting_period_threshold` days since `date_joined`, an ISO date).
 * @param nowMs the current time in milliseconds
 */
export function isFullMember(role: number, dateJoined: string | undefined, realm: Realm, nowMs: number): boolean {
  const days = Number(realm.realm_waiting_period_threshold ?? 0);
  return isFullMemberAt(role, dateJoined ? Date.parse(dateJoined) / 1000 : undefined, days, nowMs / 1000);
}
