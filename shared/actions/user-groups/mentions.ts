import type { RealmGroups } from "../../access/user-group.js";
import type { UserRecord } from "../../data/records/user.js";
import { groupSettingIncludes, recursiveMemberIds } from "../../domain/user-groups.js";
import { systemGroupId } from "../../domain/realm-settings.js";
import { JsonableError } from "../../errors.js";
import type { RenderResult } from "../../markdown/types.js";

/**
 * Zulip's `check_user_group_mention_allowed`: the sender must belong to each
 * mentioned group's `can_mention_group` (system groups: `role:nobody`,
 * Zulip's `default_for_system_groups`, so only silent mentions of them pass).
 * @param groupIds the non-silent group mentions of the content
 * @throws JsonableError `You are not allowed to mention user group '<name>'.`
 */
export function checkUserGroupMentionAllowed(groups: RealmGroups, sender: UserRecord, groupIds: number[]): void {
  for (const id of groupIds) {
    const node = groups.graph.get(id);
    if (!node) continue;
    const stored = groups.stored.find((g) => g.id === id);
    const realmId = sender.realm_id;
    const setting = stored ? stored.can_mention_group : systemGroupId(realmId, "role:nobody");
    if (!groupSettingIncludes(groups.graph, setting, sender.user_id)) {
      throw new JsonableError(`You are not allowed to mention user group '${node.name}'.`);
    }
  }
}

/**
 * The users a rendered message mentions: its direct mentions and every
 * member of each non-silently mentioned group, recursively through
 * subgroups (Zulip's `mentions_user_group_ids` expanded by
 * `get_recursive_group_members`), in first-seen order, no duplicates.
 */
export function groupMentionedUserIds(groups: RealmGroups, rendered: RenderResult): number[] {
  const ids = new Set(rendered.mentionedUserIds);
  for (const groupId of rendered.mentionedGroupIds) for (const id of recursiveMemberIds(groups.graph, groupId)) ids.add(id);
  return [...ids];
}
