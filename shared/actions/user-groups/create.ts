import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { GroupSettingValue, UserGroupRecord } from "../../data/records/user-group.js";
import type { UserRecord } from "../../data/records/user.js";

import { checkUserGroupEditPolicy, loadRealmGroups, type RealmGroups } from "../../access/user-group.js";
import { allocateIds } from "../../data/counters.js";
import { writeUserGroups } from "../../data/user-groups.js";
import { withWriteRetries } from "../../data/retry.js";
import { systemGroupId } from "../../domain/realm-settings.js";
import {
  checkUserGroupName,
  MAX_USER_GROUP_DESCRIPTION_LENGTH,
  MAX_USER_GROUP_MEMBERS,
  MAX_USER_GROUPS_PER_REALM,
} from "../../domain/user-groups.js";
import { JsonableError } from "../../errors.js";
import { checkGroupSettingValue } from "./group-settings.js";
import { notifyUserGroupAdd } from "./notify.js";

/** What `POST /user_groups/create` passed. */
export interface NewUserGroup {
  name: string;
  description: string;
  members: number[];
  canManageGroup?: GroupSettingValue;
  canMentionGroup?: GroupSettingValue;
}

/**
 * Zulip's `user_ids_to_users` for group members: every ID must be an
 * active user (or bot) of the realm.
 * @throws JsonableError `Invalid user ID: <id>` for the first that is not
 */
export function checkGroupMemberIds(groups: RealmGroups, userIds: number[]): number[] {
  const active = new Set(groups.activeUserIds);
  for (const id of userIds) if (!active.has(id)) throw new JsonableError(`Invalid user ID: ${id}`);
  return [...new Set(userIds)];
}

/**
 * Zulip's check for a name no other group of the realm has (names compare
 * case-insensitively).
 * @throws JsonableError `User group '<name>' already exists.`
 */
export function checkUserGroupNameFree(groups: RealmGroups, name: string, exceptId?: number): void {
  const lower = name.toLowerCase();
  for (const g of groups.graph.values()) {
    if (g.id !== exceptId && g.name.toLowerCase() === lower) throw new JsonableError(`User group '${name}' already exists.`);
  }
}

/** Bounds a description. @throws JsonableError `description is too long (limit: 1024 characters)` */
export function checkUserGroupDescription(description: string): string {
  if ([...description].length > MAX_USER_GROUP_DESCRIPTION_LENGTH) {
    throw new JsonableError(`description is too long (limit: ${MAX_USER_GROUP_DESCRIPTION_LENGTH} characters)`);
  }
  return description;
}

/**
 * `POST /user_groups/create` (https://zulip.com/api/create-user-group;
 * Zulip's `add_user_group` view and `check_add_user_group`): checks the
 * realm's `user_group_edit_policy`, the name (rules, uniqueness), the
 * members and the group settings (defaults: `can_manage_group`
 * `role:nobody`, `can_mention_group` `role:everyone`, as level 283's
 * `server_supported_permission_settings` says), then stores the group with
 * its unique-name item in one transaction and sends `user_group` `add`.
 *
 * Round trips: the realm's groups and users (one round), the ID counter,
 * the transaction, the event fan-out; a lost race on the name re-reads.
 * @throws JsonableError see {@link checkUserGroupName}, {@link checkGroupMemberIds},
 *   {@link checkUserGroupNameFree}, `checkGroupSettingValue`; `Insufficient permission`
 */
export async function checkAddUserGroup(deps: Deps, realm: RealmRecord, user: UserRecord, input: NewUserGroup): Promise<void> {
  checkUserGroupEditPolicy(realm, user, Math.floor(deps.clock.now() / 1000));
  const name = checkUserGroupName(input.name);
  const description = checkUserGroupDescription(input.description);
  if (input.members.length > MAX_USER_GROUP_MEMBERS) throw new JsonableError(`Too many members (limit: ${MAX_USER_GROUP_MEMBERS})`);
  let id: number | undefined;
  const { group, audience } = await withWriteRetries("create user group", async () => {
    const groups = await loadRealmGroups(deps, realm.id);
    const members = checkGroupMemberIds(groups, input.members).sort((a, b) => a - b);
    checkUserGroupNameFree(groups, name);
    if (groups.stored.length >= MAX_USER_GROUPS_PER_REALM) {
      throw new JsonableError(`Too many user groups (limit: ${MAX_USER_GROUPS_PER_REALM})`);
    }
    const canManage = checkGroupSettingValue(groups, "can_manage_group", input.canManageGroup ?? systemGroupId(realm.id, "role:nobody"));
    const canMention = checkGroupSettingValue(
      groups,
      "can_mention_group",
      input.canMentionGroup ?? systemGroupId(realm.id, "role:everyone"),
    );
    id ??= await allocateIds(deps, "user_group");
    const record: UserGroupRecord = {
      id,
      realm_id: realm.id,
      name,
      description,
      members,
      direct_subgroup_ids: [],
      can_manage_group: canManage,
      can_mention_group: canMention,
      creator_id: user.user_id,
      date_created: Math.floor(deps.clock.now() / 1000),
      version: 1,
    };
    const ok = await writeUserGroups(deps, realm.id, {
      put: [{ record, readVersion: undefined }],
      claimNames: [{ name, groupId: id }],
    });
    return ok ? { group: record, audience: groups.activeUserIds } : undefined;
  });
  await notifyUserGroupAdd(deps, group, audience);
}
