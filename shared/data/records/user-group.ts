/**
 * A group-setting value as stored and as the API carries it
 * (https://zulip.com/api/group-setting-values): a group ID, or an anonymous
 * collection of users and groups.
 */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/**
 * A user-created group as stored (Zulip's `NamedUserGroup` with its direct
 * memberships). System groups are derived from roles and never stored.
 */
export interface UserGroupRecord {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  /** Direct members' user IDs, ascending. */
  members: number[];
  /** Direct subgroups' group IDs, ascending. */
  direct_subgroup_ids: number[];
  can_manage_group: GroupSettingValue;
  can_mention_group: GroupSettingValue;
  creator_id: number | null;
  /** UNIX seconds. */
  date_created: number;
  /** Bumped by every write; each write is conditioned on the version it read. */
  version: number;
}
