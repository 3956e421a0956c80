/**
 * The organization's user groups (https://zulip.com/help/user-groups), which
 * `@` mentions offer: register's `realm_user_groups`, kept current by
 * `user_group` events (https://zulip.com/api/get-events#user_group-add and
 * the `update`, `add_members`, `remove_members`, `add_subgroups`,
 * `remove_subgroups` and `remove` ops).
 */
import type { ServerEvent } from "./types.js";

/** A user group (OpenAPI `UserGroup`). */
export type UserGroup = Extract<ServerEvent, { type: "user_group"; op: "add" }>["group"];

/** The groups in ID order (the settings pages' lists). */
export function userGroupList(groups: ReadonlyMap<number, UserGroup>): UserGroup[] {
  return [...groups.values()].sort((a, b) => a.id - b.id);
}

/** Groups by ID, from register's `realm_user_groups` (absent: none). */
export function userGroupsFromRegister(raw: unknown): Map<number, UserGroup> {
  return new Map(((raw as UserGroup[] | undefined) ?? []).map((g) => [g.id, g]));
}

/** Applies one `user_group` event; returns the new map (the old one is left as it was). */
export function applyUserGroupEvent(groups: ReadonlyMap<number, UserGroup>, event: Extract<ServerEvent, { type: "user_group" }>): Map<number, UserGroup> {
  const out = new Map(groups);
  if (event.op === "add") {
    out.set(event.group.id, event.group);
    return out;
  }
  if (event.op === "remove") {
    out.delete(event.group_id);
    return out;
  }
  const old = out.get(event.group_id);
  if (!old) return out;
  switch (event.op) {
    case "update":
      out.set(old.id, { ...old, ...event.data });
      break;
    case "add_members":
      out.set(old.id, { ...old, members: [...new Set([...old.members, ...event.user_ids])] });
      break;
    case "remove_members":
      out.set(old.id, { ...old, members: old.members.filter((id) => !event.user_ids.includes(id)) });
      break;
    case "add_subgroups":
      out.set(old.id, { ...old, direct_subgroup_ids: [...new Set([...old.direct_subgroup_ids, ...event.direct_subgroup_ids])] });
      break;
    case "remove_subgroups":
      out.set(old.id, { ...old, direct_subgroup_ids: old.direct_subgroup_ids.filter((id) => !event.direct_subgroup_ids.includes(id)) });
      break;
  }
  return out;
}
