import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { GroupSettingValue, UserGroupRecord } from "../../data/records/user-group.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessUserGroupForUpdate, checkUserGroupEditPolicy, loadRealmGroups } from "../../access/user-group.js";
import { writeUserGroups } from "../../data/user-groups.js";
import { withWriteRetries } from "../../data/retry.js";
import { checkUserGroupName } from "../../domain/user-groups.js";
import { JsonableError } from "../../errors.js";
import type { EventOf } from "../../events/types.js";
import { checkUserGroupDescription, checkUserGroupNameFree } from "./create.js";
import { checkGroupSettingValue, sameGroupSettingValue, type UserGroupSettingName } from "./group-settings.js";
import { notifyUserGroupRemove, notifyUserGroupUpdate } from "./notify.js";

/** What `PATCH /user_groups/{id}` passed; absent means unchanged. */
export interface UserGroupUpdate {
  name?: string;
  description?: string;
  canManageGroup?: { new: GroupSettingValue; old?: GroupSettingValue };
  canMentionGroup?: { new: GroupSettingValue; old?: GroupSettingValue };
}

/**
 * `PATCH /user_groups/{user_group_id}` (https://zulip.com/api/update-user-group;
 * Zulip's `edit_user_group` view): changes the passed properties that
 * differ, in one conditional write (with the name items swapped on a
 * rename), and sends one `user_group` `update` event with every changed
 * property. A setting's `old`, when given, must equal the current value.
 * @throws JsonableError `No new data supplied`, `Invalid user group`,
 *   `Insufficient permission`, the name and setting errors of creation,
 *   `'old' value does not match the expected value.`
 */
export async function doUpdateUserGroup(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  groupId: number,
  update: UserGroupUpdate,
): Promise<void> {
  checkUserGroupEditPolicy(realm, user, Math.floor(deps.clock.now() / 1000));
  if (update.name === undefined && update.description === undefined && !update.canManageGroup && !update.canMentionGroup) {
    throw new JsonableError("No new data supplied");
  }
  const done = await withWriteRetries("update user group", async () => {
    const groups = await loadRealmGroups(deps, realm.id);
    const group = accessUserGroupForUpdate(groups, user, groupId);
    const next: UserGroupRecord = { ...group };
    const data: EventOf<"user_group/update">["data"] = {};
    if (update.name !== undefined && update.name !== group.name) {
      next.name = checkUserGroupName(update.name);
      checkUserGroupNameFree(groups, next.name, group.id);
      data.name = next.name;
    }
    if (update.description !== undefined && update.description !== group.description) {
      next.description = checkUserGroupDescription(update.description);
      data.description = next.description;
    }
    const settings: [UserGroupSettingName, UserGroupUpdate["canManageGroup"]][] = [
      ["can_manage_group", update.canManageGroup],
      ["can_mention_group", update.canMentionGroup],
    ];
    for (const [setting, change] of settings) {
      if (!change) continue;
      if (change.old !== undefined && !sameGroupSettingValue(change.old, group[setting])) {
        throw new JsonableError("'old' value does not match the expected value.");
      }
      const value = checkGroupSettingValue(groups, setting, change.new);
      if (sameGroupSettingValue(value, group[setting])) continue;
      next[setting] = value;
      data[setting] = value;
    }
    if (Object.keys(data).length === 0) return { data, audience: [] as number[] };
    const renamed = data.name !== undefined && data.name.toLowerCase() !== group.name.toLowerCase();
    const ok = await writeUserGroups(deps, realm.id, {
      put: [{ record: next, readVersion: group.version }],
      ...(renamed ? { releaseNames: [group.name], claimNames: [{ name: next.name, groupId: group.id }] } : {}),
    });
    return ok ? { data, audience: groups.activeUserIds } : undefined;
  });
  if (Object.keys(done.data).length > 0) await notifyUserGroupUpdate(deps, groupId, done.data, done.audience);
}

/**
 * `DELETE /user_groups/{user_group_id}` (https://zulip.com/api/remove-user-group;
 * Zulip's `check_delete_user_group`): deletes the group and its name item
 * and takes it out of every group it is a direct subgroup of, in one
 * transaction conditioned on each group's version and the graph version;
 * sends `user_group` `remove`.
 * @throws JsonableError `Invalid user group`, `Insufficient permission`
 */
export async function checkDeleteUserGroup(deps: Deps, realm: RealmRecord, user: UserRecord, groupId: number): Promise<void> {
  checkUserGroupEditPolicy(realm, user, Math.floor(deps.clock.now() / 1000));
  const audience = await withWriteRetries("delete user group", async () => {
    const groups = await loadRealmGroups(deps, realm.id);
    const group = accessUserGroupForUpdate(groups, user, groupId);
    const supergroups = groups.stored
      .filter((g) => g.direct_subgroup_ids.includes(groupId))
      .map((g) => ({ record: { ...g, direct_subgroup_ids: g.direct_subgroup_ids.filter((id) => id !== groupId) }, readVersion: g.version }));
    const ok = await writeUserGroups(deps, realm.id, {
      put: supergroups,
      delete: [{ record: group }],
      releaseNames: [group.name],
      graphVersion: groups.graphVersion,
    });
    return ok ? groups.activeUserIds : undefined;
  });
  await notifyUserGroupRemove(deps, groupId, audience);
}
