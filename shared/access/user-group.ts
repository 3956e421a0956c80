import type { Deps } from "../deps.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserGroupRecord } from "../data/records/user-group.js";
import type { UserRecord } from "../data/records/user.js";

import { listRealmUserGroups } from "../data/user-groups.js";
import { listActiveRealmUsers, type ActiveRealmUser } from "../data/users.js";
import {
  isFullMember,
  REALM_GROUP_SETTING_DEFAULTS,
  realmGroupSettingNamesUserGroup,
  realmSettings,
  rolePolicyAllows,
} from "../domain/realm-settings.js";
import { isGuest, isModeratorOrAbove } from "../domain/roles.js";
import { groupGraph, groupSettingIncludes, type GroupNode } from "../domain/user-groups.js";
import { HumanUsersOnlyError, InsufficientPermissionError, JsonableError } from "../errors.js";

/** A realm's groups as one read sees them: the stored groups, the whole graph (system groups included) and the graph version. */
export interface RealmGroups {
  stored: UserGroupRecord[];
  graph: Map<number, GroupNode>;
  graphVersion: number;
  /** The realm's active users and bots (system bots aside), with their roles. */
  users: ActiveRealmUser[];
  /** Their IDs: the audience of `user_group` events. */
  activeUserIds: number[];
}

/**
 * Reads a realm's groups and builds the group graph: the stored groups and
 * the realm's active users (for the system groups' role-based members), in
 * parallel — two Queries and one GetItem, one round.
 */
export async function loadRealmGroups(deps: Pick<Deps, "db" | "table">, realmId: number): Promise<RealmGroups> {
  const [{ groups, graphVersion }, users] = await Promise.all([
    listRealmUserGroups(deps, realmId),
    listActiveRealmUsers(deps, realmId),
  ]);
  return {
    stored: groups,
    graph: groupGraph(realmId, users, groups),
    graphVersion,
    users,
    activeUserIds: users.map((u) => u.user_id),
  };
}

/**
 * Zulip's `require_member_or_admin` for the user-group reads.
 * @throws JsonableError 400 `Not allowed for guest users`
 * @throws HumanUsersOnlyError 400 `This endpoint does not accept bot requests.`
 */
export function checkMemberOrAdmin(user: UserRecord): void {
  if (isGuest(user)) throw new JsonableError("Not allowed for guest users");
  if (user.is_bot) throw new HumanUsersOnlyError();
}

/**
 * Zulip's `require_user_group_edit_permission` (feature level 283): the
 * realm's `user_group_edit_policy` (members by default; never guests;
 * full members per the realm's `waiting_period_threshold`).
 * @param nowSeconds UNIX seconds (the deps clock)
 * @throws InsufficientPermissionError 400 `Insufficient permission`
 */
export function checkUserGroupEditPolicy(realm: RealmRecord, user: UserRecord, nowSeconds: number): void {
  const policy = Number(realmSettings(realm).user_group_edit_policy);
  if (isGuest(user) || !rolePolicyAllows(policy, user, isFullMember(realm, user, nowSeconds))) {
    throw new InsufficientPermissionError();
  }
}

/**
 * Finds a group of the realm by ID for reading (Zulip's
 * `access_user_group_by_id` with `for_read`): system and user-created groups.
 * @throws JsonableError 400 `Invalid user group`
 */
export function accessUserGroupForRead(groups: RealmGroups, groupId: number): GroupNode {
  const node = groups.graph.get(groupId);
  if (!node) throw new JsonableError("Invalid user group");
  return node;
}

/**
 * Finds a user-created group the caller may change (Zulip's
 * `access_user_group_by_id` for writing at feature level 283): system
 * groups are refused; the group's `can_manage_group` members, moderators,
 * administrators and the group's direct members may change it.
 * @throws JsonableError 400 `Invalid user group`
 * @throws InsufficientPermissionError 400 `Insufficient permission`
 */
export function accessUserGroupForUpdate(groups: RealmGroups, user: UserRecord, groupId: number): UserGroupRecord {
  accessUserGroupForRead(groups, groupId);
  const group = groups.stored.find((g) => g.id === groupId);
  if (!group) throw new InsufficientPermissionError();
  if (groupSettingIncludes(groups.graph, group.can_manage_group, user.user_id) && !isGuest(user)) return group;
  if (isModeratorOrAbove(user) || group.members.includes(user.user_id)) return group;
  throw new InsufficientPermissionError();
}

/**
 * The membership test {@link realmGroupSettingAllows} needs for some
 * group-valued realm settings: reads the realm's groups (one round, see
 * {@link loadRealmGroups}) only when one of the settings names a
 * user-created group; otherwise undefined, and nothing is read.
 * @returns whether `user` belongs, recursively through subgroups, to a group ID; or undefined
 */
export async function realmSettingGroupMembership(
  deps: Pick<Deps, "db" | "table">,
  realm: RealmRecord,
  user: Pick<UserRecord, "user_id">,
  settings: readonly (keyof typeof REALM_GROUP_SETTING_DEFAULTS)[],
): Promise<((groupId: number) => boolean) | undefined> {
  if (!settings.some((s) => realmGroupSettingNamesUserGroup(realm, s))) return undefined;
  const { graph } = await loadRealmGroups(deps, realm.id);
  return (groupId) => groupSettingIncludes(graph, groupId, user.user_id);
}
