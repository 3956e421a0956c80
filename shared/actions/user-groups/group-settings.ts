import { z } from "zod";
import type { GroupSettingValue } from "../../data/records/user-group.js";
import type { RealmGroups } from "../../access/user-group.js";
import { JsonableError } from "../../errors.js";

/** Most users or groups an anonymous group-setting value may name. */
const MAX_SETTING_ENTRIES = 1000;

/** A group-setting value as a request carries it (JSON): a group ID or `{direct_members, direct_subgroups}`. */
export const groupSettingValueParam = z.union([
  z.int(),
  z.strictObject({
    direct_members: z.array(z.int()).max(MAX_SETTING_ENTRIES),
    direct_subgroups: z.array(z.int()).max(MAX_SETTING_ENTRIES),
  }),
]);

/** A `PATCH /user_groups/{id}` setting change: the new value and, optionally, the value the client expects now. */
export const groupSettingChangeParam = z.strictObject({
  new: groupSettingValueParam,
  old: groupSettingValueParam.optional(),
});

/** The group settings of a user group and the system groups each may not name (OpenAPI `create-user-group`). */
const REFUSED_SYSTEM_GROUPS = {
  can_manage_group: ["role:internet", "role:everyone"],
  can_mention_group: ["role:internet", "role:owners"],
} as const;

export type UserGroupSettingName = keyof typeof REFUSED_SYSTEM_GROUPS;

/**
 * Zulip's `access_user_group_for_setting` for a user group's settings:
 * checks that the value names existing groups and active users of the
 * realm, and that a system group is allowed for the setting. An anonymous
 * value with no users and one subgroup becomes that group's ID, as Zulip
 * stores it.
 * @returns the value to store
 * @throws JsonableError `Invalid user group`, `Invalid user group ID: <id>`,
 *   `Invalid user ID: <id>`, `'<setting>' setting cannot be set to '<group>' group.`
 */
export function checkGroupSettingValue(
  groups: RealmGroups,
  setting: UserGroupSettingName,
  value: GroupSettingValue,
): GroupSettingValue {
  if (typeof value === "number") {
    const node = groups.graph.get(value);
    if (!node) throw new JsonableError("Invalid user group");
    if (node.is_system_group && (REFUSED_SYSTEM_GROUPS[setting] as readonly string[]).includes(node.name)) {
      throw new JsonableError(`'${setting}' setting cannot be set to '${node.name}' group.`);
    }
    return value;
  }
  const active = new Set(groups.activeUserIds);
  for (const id of value.direct_members) if (!active.has(id)) throw new JsonableError(`Invalid user ID: ${id}`);
  for (const id of value.direct_subgroups) if (!groups.graph.has(id)) throw new JsonableError(`Invalid user group ID: ${id}`);
  const members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  const subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  if (members.length === 0 && subgroups.length === 1) return checkGroupSettingValue(groups, setting, subgroups[0]!);
  return { direct_members: members, direct_subgroups: subgroups };
}

/** Whether two group-setting values are the same (an anonymous value compares by its sets). */
export function sameGroupSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === "number" || typeof b === "number") return a === b;
  const sorted = (x: number[]) => [...new Set(x)].sort((p, q) => p - q).join(",");
  const same = (x: number[], y: number[]) => sorted(x) === sorted(y);
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}
