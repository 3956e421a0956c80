/**
 * The organization's user groups (https://zulip.com/help/user-groups) as
 * register's `realm_user_groups` gives them, kept current by `user_group`
 * events (https://zulip.com/api/get-events#user_group-add and the other ops).
 * The list lives in `ChatState.realmSettings.realm_user_groups`, as register
 * sent it; {@link userGroups} reads it.
 */
import type { UserGroupWire } from "../../../shared/wire/user-group.js";
import type { ServerEvent } from "./types.js";

export type UserGroup = UserGroupWire;

type UserGroupEvent = Extract<ServerEvent, { type: "user_group" }>;

/** The groups of the state's organization settings, by ID order; empty when register sent none. */
export function userGroups(realmSettings: Readonly<Record<string, unknown>>): UserGroup[] {
  return (realmSettings.realm_user_groups as UserGroup[] | undefined) ?? [];
}

/** Adds or removes IDs of a list, keeping it sorted and without repeats. */
function changeIds(list: readonly number[], ids: readonly number[], add: boolean): number[] {
  const set = new Set(list);
  for (const id of ids) {
    if (add) set.add(id);
    else set.delete(id);
  }
  return [...set].sort((a, b) => a - b);
}

/**
 * Applies one `user_group` event to a group list: `add` appends the group,
 * `update` merges `data` (name, description, permission settings), `add_members`/
 * `remove_members` and `add_subgroups`/`remove_subgroups` change those ID lists,
 * `remove` drops the group. Returns a new list; an unknown group ID changes nothing.
 */
export function applyUserGroupEvent(groups: readonly UserGroup[], event: UserGroupEvent): UserGroup[] {
  switch (event.op) {
    case "add":
      return [...groups.filter((g) => g.id !== event.group.id), event.group as UserGroup].sort((a, b) => a.id - b.id);
    case "remove":
      return groups.filter((g) => g.id !== event.group_id);
    case "update":
      return groups.map((g) => (g.id === event.group_id ? ({ ...g, ...event.data } as UserGroup) : g));
    case "add_members":
    case "remove_members":
      return groups.map((g) => (g.id === event.group_id ? { ...g, members: changeIds(g.members, event.user_ids, event.op === "add_members") } : g));
    case "add_subgroups":
    case "remove_subgroups":
      return groups.map((g) =>
        g.id === event.group_id
          ? { ...g, direct_subgroup_ids: changeIds(g.direct_subgroup_ids, event.direct_subgroup_ids, event.op === "add_subgroups") }
          : g,
      );
    default:
      return [...groups];
  }
}
