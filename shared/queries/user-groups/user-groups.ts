import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessUserById } from "../../access/user.js";
import { accessUserGroupForRead, checkMemberOrAdmin, loadRealmGroups } from "../../access/user-group.js";
import { listRealmUserGroups } from "../../data/user-groups.js";
import { recursiveMemberIds, recursiveSubgroupIds } from "../../domain/user-groups.js";
import { realmUserGroupsToWire, type UserGroupWire } from "../../wire/user-group.js";

/**
 * `GET /user_groups` (https://zulip.com/api/get-user-groups; Zulip's
 * `get_user_group`): every group of the organization, system groups
 * included, ordered by ID. Members and administrators only.
 * @throws JsonableError `Not allowed for guest users`, `This endpoint does not accept bot requests.`
 */
export async function fetchUserGroups(deps: Deps, realm: RealmRecord, user: UserRecord): Promise<{ user_groups: UserGroupWire[] }> {
  checkMemberOrAdmin(user);
  const groups = await loadRealmGroups(deps, realm.id);
  return { user_groups: realmUserGroupsToWire(realm.id, groups.users, groups.stored) };
}

/**
 * The `realm_user_groups` of `POST /register`: the system groups (members
 * by role, from the realm's users register reads anyway) and the stored
 * groups, ordered by ID. One extra Query and GetItem.
 * @param users the realm's active users
 */
export async function realmUserGroupsInitialState(
  deps: Pick<Deps, "db" | "table">,
  realm: RealmRecord,
  users: { user_id: number; role: number; is_bot: boolean }[],
): Promise<{ realm_user_groups: UserGroupWire[] }> {
  const { groups } = await listRealmUserGroups(deps, realm.id);
  return { realm_user_groups: realmUserGroupsToWire(realm.id, users, groups) };
}

/**
 * `GET /user_groups/{user_group_id}/members` (https://zulip.com/api/get-user-group-members):
 * the group's members, recursively through subgroups unless `directMemberOnly`.
 * @throws JsonableError `Invalid user group`, and the errors of {@link fetchUserGroups}
 */
export async function fetchUserGroupMembers(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  groupId: number,
  directMemberOnly: boolean,
): Promise<{ members: number[] }> {
  checkMemberOrAdmin(user);
  const groups = await loadRealmGroups(deps, realm.id);
  const group = accessUserGroupForRead(groups, groupId);
  return { members: directMemberOnly ? [...group.members].sort((a, b) => a - b) : recursiveMemberIds(groups.graph, groupId) };
}

/**
 * `GET /user_groups/{user_group_id}/members/{user_id}` (https://zulip.com/api/get-is-user-group-member).
 * @throws JsonableError `Invalid user group`, `No such user`, `User is deactivated`, and the errors of {@link fetchUserGroups}
 */
export async function fetchIsUserGroupMember(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  groupId: number,
  userId: number,
  directMemberOnly: boolean,
): Promise<{ is_user_group_member: boolean }> {
  checkMemberOrAdmin(user);
  const groups = await loadRealmGroups(deps, realm.id);
  const group = accessUserGroupForRead(groups, groupId);
  const target = await accessUserById(deps, realm, user, userId, { allowDeactivated: false, allowBots: true, forAdmin: false });
  const members = directMemberOnly ? group.members : recursiveMemberIds(groups.graph, groupId);
  return { is_user_group_member: members.includes(target.user_id) };
}

/**
 * `GET /user_groups/{user_group_id}/subgroups` (https://zulip.com/api/get-user-group-subgroups):
 * the group's subgroups at any depth unless `directSubgroupOnly`.
 * @throws JsonableError `Invalid user group`, and the errors of {@link fetchUserGroups}
 */
export async function fetchUserGroupSubgroups(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  groupId: number,
  directSubgroupOnly: boolean,
): Promise<{ subgroups: number[] }> {
  checkMemberOrAdmin(user);
  const groups = await loadRealmGroups(deps, realm.id);
  const group = accessUserGroupForRead(groups, groupId);
  if (directSubgroupOnly) return { subgroups: [...group.direct_subgroup_ids].sort((a, b) => a - b) };
  const all = recursiveSubgroupIds(groups.graph, group.direct_subgroup_ids);
  all.delete(groupId);
  return { subgroups: [...all].sort((a, b) => a - b) };
}
