import type { UserGroupRecord } from "../data/records/user-group.js";
import { systemUserGroups } from "../domain/realm-settings.js";

/** A user group as the API carries it (OpenAPI `UserGroup` at feature level 283). */
export interface UserGroupWire {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  can_manage_group: UserGroupRecord["can_manage_group"];
  can_mention_group: UserGroupRecord["can_mention_group"];
}

/** A stored group in the API's shape (https://zulip.com/api/get-user-groups). */
export function userGroupToWire(g: UserGroupRecord): UserGroupWire {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    members: [...g.members],
    direct_subgroup_ids: [...g.direct_subgroup_ids],
    is_system_group: false,
    can_manage_group: g.can_manage_group,
    can_mention_group: g.can_mention_group,
  };
}

/**
 * Every group of a realm in the API's shape, ordered by ID as Zulip's
 * `user_groups_in_realm_serialized`: the stored groups, then the system
 * groups (whose IDs lie above every stored group's).
 * @param users the realm's active users (system groups' members by role; deactivated users are listed in no group)
 */
export function realmUserGroupsToWire(
  realmId: number,
  users: { user_id: number; role: number; is_bot: boolean }[],
  stored: UserGroupRecord[],
): UserGroupWire[] {
  const active = new Set(users.map((u) => u.user_id));
  const all = [
    ...stored.map((g) => ({ ...userGroupToWire(g), members: g.members.filter((id) => active.has(id)) })),
    ...(systemUserGroups(realmId, users) as unknown as UserGroupWire[]),
  ];
  return all.sort((a, b) => a.id - b.id);
}
