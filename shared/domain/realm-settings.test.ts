import { describe, expect, it } from "vitest";
import { Role } from "./roles.js";
import {
  isFullMember,
  realmGroupSettingAllows,
  realmGroupSettingNamesUserGroup,
  wildcardMentionPolicyAllows,
  realmSettings,
  rolePolicyAllows,
  SYSTEM_GROUP_ID_BASE,
  systemGroupId,
  systemUserGroups,
} from "./realm-settings.js";

const realm = { id: 3, settings: {} };

describe("realmSettings", () => {
  it("merges stored overrides over the defaults and names system groups by ID", () => {
    const s = realmSettings({ id: 3, settings: { mandatory_topics: true } });
    expect(s.mandatory_topics).toBe(true);
    expect(s.message_retention_days).toBe(-1);
    expect(s.can_create_public_channel_group).toBe(systemGroupId(3, "role:members"));
  });
});

describe("systemGroupId", () => {
  it("gives each realm its own IDs far above counter-allocated ones", () => {
    expect(systemGroupId(3, "role:internet")).toBe(SYSTEM_GROUP_ID_BASE + 48);
    expect(systemGroupId(4, "role:internet")).not.toBe(systemGroupId(3, "role:nobody"));
  });
});

describe("realmGroupSettingAllows", () => {
  it("checks the role against the named system group", () => {
    expect(realmGroupSettingAllows(realm, "can_create_public_channel_group", { role: Role.MEMBER })).toBe(true);
    expect(realmGroupSettingAllows(realm, "can_create_public_channel_group", { role: Role.GUEST })).toBe(false);
    expect(realmGroupSettingAllows(realm, "can_create_web_public_channel_group", { role: Role.ADMINISTRATOR })).toBe(false);
    expect(realmGroupSettingAllows(realm, "can_create_web_public_channel_group", { role: Role.OWNER })).toBe(true);
    const nobody = { id: 3, settings: { can_create_public_channel_group: systemGroupId(3, "role:nobody") } };
    expect(realmGroupSettingAllows(nobody, "can_create_public_channel_group", { role: Role.OWNER })).toBe(false);
  });
});

describe("rolePolicyAllows", () => {
  it("follows Zulip's integer policies", () => {
    expect(rolePolicyAllows(1, { role: Role.MEMBER })).toBe(true);
    expect(rolePolicyAllows(1, { role: Role.GUEST })).toBe(false);
    expect(rolePolicyAllows(2, { role: Role.MODERATOR })).toBe(false);
    expect(rolePolicyAllows(4, { role: Role.MODERATOR })).toBe(true);
    expect(rolePolicyAllows(5, { role: Role.GUEST })).toBe(true);
    expect(rolePolicyAllows(6, { role: Role.OWNER })).toBe(false);
  });
});

describe("systemUserGroups", () => {
  it("puts each user in the narrowest group of their role and nests the groups", () => {
    const groups = systemUserGroups(3, [
      { user_id: 1, role: Role.OWNER, is_bot: false },
      { user_id: 2, role: Role.MEMBER, is_bot: false },
      { user_id: 3, role: Role.GUEST, is_bot: false },
    ]);
    const byName = Object.fromEntries(groups.map((g) => [g.name as string, g]));
    expect(byName["role:owners"]!.members).toEqual([1]);
    expect(byName["role:fullmembers"]!.members).toEqual([2]);
    expect(byName["role:everyone"]!.members).toEqual([3]);
    expect(byName["role:everyone"]!.direct_subgroup_ids).toEqual([byName["role:members"]!.id]);
    expect(byName["role:nobody"]!.direct_subgroup_ids).toEqual([]);
  });
});

describe("user-created groups in group-valued settings", () => {
  const named = { id: 3, settings: { can_create_public_channel_group: 42 } };
  it("grants by membership only, and only with a membership test", () => {
    expect(realmGroupSettingNamesUserGroup(named, "can_create_public_channel_group")).toBe(true);
    expect(realmGroupSettingNamesUserGroup(realm, "can_create_public_channel_group")).toBe(false);
    expect(realmGroupSettingAllows(named, "can_create_public_channel_group", { role: Role.OWNER })).toBe(false);
    expect(realmGroupSettingAllows(named, "can_create_public_channel_group", { role: Role.GUEST }, (id) => id === 42)).toBe(true);
    expect(realmGroupSettingAllows(named, "can_create_public_channel_group", { role: Role.OWNER }, () => false)).toBe(false);
  });
});

describe("full members and the wildcard mention policy", () => {
  const day = 86_400;
  const waiting = { id: 3, settings: { waiting_period_threshold: 3, wildcard_mention_policy: 3 } };
  it("counts whole days since date_joined against waiting_period_threshold", () => {
    expect(isFullMember(waiting, { role: Role.MEMBER, date_joined: 0 }, 3 * day - 1)).toBe(false);
    expect(isFullMember(waiting, { role: Role.MEMBER, date_joined: 0 }, 3 * day)).toBe(true);
    expect(isFullMember(waiting, { role: Role.MODERATOR, date_joined: 0 }, 0)).toBe(true);
    expect(isFullMember(waiting, { role: Role.GUEST, date_joined: 0 }, 100 * day)).toBe(false);
    expect(rolePolicyAllows(3, { role: Role.MEMBER }, false)).toBe(false);
    expect(rolePolicyAllows(1, { role: Role.MEMBER }, false)).toBe(true);
  });
  it("maps each wildcard_mention_policy value", () => {
    const policy = (p: number) => ({ id: 3, settings: { wildcard_mention_policy: p } });
    const member = { role: Role.MEMBER, date_joined: 0 };
    expect(wildcardMentionPolicyAllows(policy(1), { role: Role.GUEST, date_joined: 0 }, 0)).toBe(true);
    expect(wildcardMentionPolicyAllows(policy(2), member, 0)).toBe(true);
    expect(wildcardMentionPolicyAllows(waiting, member, day)).toBe(false);
    expect(wildcardMentionPolicyAllows(policy(5), { role: Role.MODERATOR, date_joined: 0 }, 0)).toBe(false);
    expect(wildcardMentionPolicyAllows(policy(7), { role: Role.MODERATOR, date_joined: 0 }, 0)).toBe(true);
    expect(wildcardMentionPolicyAllows(policy(6), { role: Role.OWNER, date_joined: 0 }, 0)).toBe(false);
  });
});
