import type { GroupSettingValue } from "../data/records/user-group.js";
import { JsonableError } from "../errors.js";

import { systemUserGroups } from "./realm-settings.js";

/** Zulip's `NamedUserGroup.MAX_NAME_LENGTH`, in characters. */
export const MAX_USER_GROUP_NAME_LENGTH = 100;
/** Longest group description, in characters (bounded as every request string is). */
export const MAX_USER_GROUP_DESCRIPTION_LENGTH = 1024;
/** Prefixes a group name may not start with (Zulip's `NamedUserGroup.INVALID_NAME_PREFIXES`). */
export const INVALID_USER_GROUP_NAME_PREFIXES = ["@", "role:", "user:", "stream:", "channel:"] as const;
/** Most direct members a group holds (keeps the group item far below DynamoDB's 400 KB). */
export const MAX_USER_GROUP_MEMBERS = 10_000;
/** Most direct subgroups a group holds. */
export const MAX_USER_GROUP_SUBGROUPS = 100;
/** Most user-created groups in one organization (register and mentions read them all in one Query). */
export const MAX_USER_GROUPS_PER_REALM = 1000;

/**
 * Zulip's `check_user_group_name`.
 * @returns the name, unchanged
 * @throws JsonableError `User group name can't be empty!`,
 *   `User group name cannot exceed 100 characters.`, `User group name cannot start with '<prefix>'.`
 */
export function checkUserGroupName(name: string): string {
  if (name.trim() === "") throw new JsonableError("User group name can't be empty!");
  if ([...name].length > MAX_USER_GROUP_NAME_LENGTH) {
    throw new JsonableError(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  }
  for (const prefix of INVALID_USER_GROUP_NAME_PREFIXES) {
    if (name.startsWith(prefix)) throw new JsonableError(`User group name cannot start with '${prefix}'.`);
  }
  return name;
}

/** A group as the graph functions see it: system or user-created. */
export interface GroupNode {
  id: number;
  name: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
}

/**
 * A realm's whole group graph: the derived system groups (memberships by
 * role) and the stored groups, by ID.
 * @param users the realm's active users (system groups' members; only they count as members)
 */
export function groupGraph(
  realmId: number,
  users: { user_id: number; role: number; is_bot: boolean }[],
  stored: { id: number; name: string; members: number[]; direct_subgroup_ids: number[] }[],
): Map<number, GroupNode> {
  const graph = new Map<number, GroupNode>();
  for (const g of systemUserGroups(realmId, users)) {
    graph.set(g.id as number, {
      id: g.id as number,
      name: g.name as string,
      members: g.members as number[],
      direct_subgroup_ids: g.direct_subgroup_ids as number[],
      is_system_group: true,
    });
  }
  // Deactivated users keep their stored memberships (a reactivation restores them) but count as no one's member.
  const active = new Set(users.map((u) => u.user_id));
  for (const g of stored) {
    graph.set(g.id, {
      id: g.id,
      name: g.name,
      members: g.members.filter((id) => active.has(id)),
      direct_subgroup_ids: g.direct_subgroup_ids,
      is_system_group: false,
    });
  }
  return graph;
}

/**
 * The IDs of every group reachable below `rootIds` through subgroups
 * (Zulip's `get_recursive_subgroups_for_groups`), the roots included.
 * Terminates on any graph (visited set).
 */
export function recursiveSubgroupIds(graph: Map<number, GroupNode>, rootIds: Iterable<number>): Set<number> {
  const seen = new Set<number>();
  const stack = [...rootIds];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    const node = graph.get(id);
    if (!node) continue;
    seen.add(id);
    stack.push(...node.direct_subgroup_ids);
  }
  return seen;
}

/** Every member of a group, directly or through subgroups at any depth (Zulip's `get_recursive_group_members`), ascending. */
export function recursiveMemberIds(graph: Map<number, GroupNode>, groupId: number): number[] {
  const members = new Set<number>();
  for (const id of recursiveSubgroupIds(graph, [groupId])) for (const m of graph.get(id)!.members) members.add(m);
  return [...members].sort((a, b) => a - b);
}

/**
 * Whether a user belongs to the set a group-setting value names: the group
 * (recursively) for an ID; its direct members or any of its subgroups
 * (recursively) for an anonymous value.
 */
export function groupSettingIncludes(graph: Map<number, GroupNode>, value: GroupSettingValue, userId: number): boolean {
  if (typeof value === "number") return recursiveMemberIds(graph, value).includes(userId);
  if (value.direct_members.includes(userId)) return true;
  return value.direct_subgroups.some((id) => recursiveMemberIds(graph, id).includes(userId));
}
