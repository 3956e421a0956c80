import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessUserGroupForUpdate, checkUserGroupEditPolicy, loadRealmGroups } from "../../access/user-group.js";
import { writeUserGroups } from "../../data/user-groups.js";
import { withWriteRetries } from "../../data/retry.js";
import { MAX_USER_GROUP_MEMBERS, MAX_USER_GROUP_SUBGROUPS, recursiveSubgroupIds } from "../../domain/user-groups.js";
import { JsonableError } from "../../errors.js";
import { checkGroupMemberIds } from "./create.js";
import { notifyUserGroupMembers, notifyUserGroupSubgroups } from "./notify.js";

/** An `add`/`delete` pair of `POST /user_groups/{id}/members` or `/subgroups`. */
export interface MembershipChange {
  add: number[];
  delete: number[];
}

const NOTHING_TO_DO = 'Nothing to do. Specify at least one of "add" or "delete".';

/**
 * `POST /user_groups/{user_group_id}/members` (https://zulip.com/api/update-user-group-members;
 * Zulip's `update_user_group_backend`): adds and removes direct members in
 * one write conditioned on the group's version (a concurrent change makes
 * it re-read and re-check), then sends `add_members` and `remove_members`.
 * @throws JsonableError `Nothing to do. Specify at least one of "add" or "delete".`,
 *   `Invalid user group`, `Insufficient permission`, `Invalid user ID: <id>`,
 *   `User <id> is already a member of this group`, `There is no member '<id>' in this user group`
 */
export async function doUpdateUserGroupMembers(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  groupId: number,
  change: MembershipChange,
): Promise<void> {
  checkUserGroupEditPolicy(realm, user, Math.floor(deps.clock.now() / 1000));
  if (change.add.length === 0 && change.delete.length === 0) throw new JsonableError(NOTHING_TO_DO);
  const done = await withWriteRetries("update user group members", async () => {
    const groups = await loadRealmGroups(deps, realm.id);
    const group = accessUserGroupForUpdate(groups, user, groupId);
    const add = checkGroupMemberIds(groups, change.add);
    for (const id of add) if (group.members.includes(id)) throw new JsonableError(`User ${id} is already a member of this group`);
    const remove = [...new Set(change.delete)];
    for (const id of remove) {
      if (!group.members.includes(id)) throw new JsonableError(`There is no member '${id}' in this user group`);
    }
    const members = [...group.members.filter((id) => !remove.includes(id)), ...add].sort((a, b) => a - b);
    if (members.length > MAX_USER_GROUP_MEMBERS) throw new JsonableError(`Too many members (limit: ${MAX_USER_GROUP_MEMBERS})`);
    const ok = await writeUserGroups(deps, realm.id, { put: [{ record: { ...group, members }, readVersion: group.version }] });
    return ok ? { add, remove, audience: groups.activeUserIds } : undefined;
  });
  if (done.add.length > 0) await notifyUserGroupMembers(deps, "add_members", groupId, done.add, done.audience);
  if (done.remove.length > 0) await notifyUserGroupMembers(deps, "remove_members", groupId, done.remove, done.audience);
}

/**
 * `POST /user_groups/{user_group_id}/subgroups` (https://zulip.com/api/update-user-group-subgroups;
 * Zulip's `update_subgroups_of_user_group`): adds and removes direct
 * subgroups. A group may not contain itself through any path: the write is
 * conditioned on the realm's graph version, so a concurrent subgroup change
 * makes it re-read and re-check the cycle.
 * @throws JsonableError `Nothing to do. Specify at least one of "add" or "delete".`,
 *   `Invalid user group`, `Insufficient permission`, `Invalid user group ID: <id>`,
 *   `User group <id> is already a subgroup of this group.`, `User group <id> is not a subgroup of this group.`,
 *   `User group <id> is already a subgroup of one of the passed subgroups.`
 */
export async function doUpdateUserGroupSubgroups(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  groupId: number,
  change: MembershipChange,
): Promise<void> {
  checkUserGroupEditPolicy(realm, user, Math.floor(deps.clock.now() / 1000));
  if (change.add.length === 0 && change.delete.length === 0) throw new JsonableError(NOTHING_TO_DO);
  const done = await withWriteRetries("update user group subgroups", async () => {
    const groups = await loadRealmGroups(deps, realm.id);
    const add = [...new Set(change.add)];
    const remove = [...new Set(change.delete)];
    for (const id of [...add, ...remove]) if (!groups.graph.has(id)) throw new JsonableError(`Invalid user group ID: ${id}`);
    const group = accessUserGroupForUpdate(groups, user, groupId);
    for (const id of add) {
      if (group.direct_subgroup_ids.includes(id)) throw new JsonableError(`User group ${id} is already a subgroup of this group.`);
    }
    if (add.length > 0 && recursiveSubgroupIds(groups.graph, add).has(groupId)) {
      throw new JsonableError(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
    }
    for (const id of remove) {
      if (!group.direct_subgroup_ids.includes(id)) throw new JsonableError(`User group ${id} is not a subgroup of this group.`);
    }
    const subgroups = [...group.direct_subgroup_ids.filter((id) => !remove.includes(id)), ...add].sort((a, b) => a - b);
    if (subgroups.length > MAX_USER_GROUP_SUBGROUPS) {
      throw new JsonableError(`Too many subgroups (limit: ${MAX_USER_GROUP_SUBGROUPS})`);
    }
    const ok = await writeUserGroups(deps, realm.id, {
      put: [{ record: { ...group, direct_subgroup_ids: subgroups }, readVersion: group.version }],
      graphVersion: groups.graphVersion,
    });
    return ok ? { add, remove, audience: groups.activeUserIds } : undefined;
  });
  if (done.add.length > 0) await notifyUserGroupSubgroups(deps, "add_subgroups", groupId, done.add, done.audience);
  if (done.remove.length > 0) await notifyUserGroupSubgroups(deps, "remove_subgroups", groupId, done.remove, done.audience);
}
