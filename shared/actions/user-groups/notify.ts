import type { Deps } from "../../deps.js";
import type { UserGroupRecord } from "../../data/records/user-group.js";
import { sendEvent } from "../../events/publish.js";
import type { EventOf } from "../../events/types.js";
import { userGroupToWire } from "../../wire/user-group.js";

/**
 * The `user_group` events (https://zulip.com/api/get-events#user_group-add
 * and the other ops; Zulip's `notify_*` functions of
 * `zerver/actions/user_groups.py`), each sent to every active user of the
 * organization after the change is stored.
 */

/** `user_group` `add`: the new group. */
export async function notifyUserGroupAdd(deps: Deps, group: UserGroupRecord, audience: number[]): Promise<void> {
  await sendEvent(deps, { type: "user_group", op: "add", group: userGroupToWire(group) }, audience);
}

/** `user_group` `update`: the changed properties only. */
export async function notifyUserGroupUpdate(
  deps: Deps,
  groupId: number,
  data: EventOf<"user_group/update">["data"],
  audience: number[],
): Promise<void> {
  await sendEvent(deps, { type: "user_group", op: "update", group_id: groupId, data }, audience);
}

/** `user_group` `add_members` / `remove_members`. */
export async function notifyUserGroupMembers(
  deps: Deps,
  op: "add_members" | "remove_members",
  groupId: number,
  userIds: number[],
  audience: number[],
): Promise<void> {
  await sendEvent(deps, { type: "user_group", op, group_id: groupId, user_ids: userIds }, audience);
}

/** `user_group` `add_subgroups` / `remove_subgroups`. */
export async function notifyUserGroupSubgroups(
  deps: Deps,
  op: "add_subgroups" | "remove_subgroups",
  groupId: number,
  subgroupIds: number[],
  audience: number[],
): Promise<void> {
  await sendEvent(deps, { type: "user_group", op, group_id: groupId, direct_subgroup_ids: subgroupIds }, audience);
}

/** `user_group` `remove`: a deleted group. */
export async function notifyUserGroupRemove(deps: Deps, groupId: number, audience: number[]): Promise<void> {
  await sendEvent(deps, { type: "user_group", op: "remove", group_id: groupId }, audience);
}
