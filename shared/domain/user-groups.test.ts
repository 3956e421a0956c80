import { describe, expect, it } from "vitest";
import { systemGroupId } from "./realm-settings.js";
import { Role } from "./roles.js";
import { checkUserGroupName, groupGraph, groupSettingIncludes, recursiveMemberIds, recursiveSubgroupIds } from "./user-groups.js";

const users = [
  { user_id: 1, role: Role.OWNER, is_bot: false },
  { user_id: 2, role: Role.MEMBER, is_bot: false },
  { user_id: 3, role: Role.GUEST, is_bot: false },
];
const stored = [
  { id: 10, name: "a", members: [2], direct_subgroup_ids: [11] },
  { id: 11, name: "b", members: [3, 99], direct_subgroup_ids: [10] },
  { id: 12, name: "admins", members: [], direct_subgroup_ids: [systemGroupId(7, "role:administrators")] },
];

describe("checkUserGroupName", () => {
  it("applies Zulip's rules", () => {
    expect(checkUserGroupName("team")).toBe("team");
    expect(() => checkUserGroupName(" ")).toThrow("User group name can't be empty!");
    expect(() => checkUserGroupName("é".repeat(101))).toThrow("User group name cannot exceed 100 characters.");
    expect(checkUserGroupName("é".repeat(100))).toHaveLength(100);
    expect(() => checkUserGroupName("user:x")).toThrow("User group name cannot start with 'user:'.");
    expect(() => checkUserGroupName("stream:x")).toThrow("User group name cannot start with 'stream:'.");
  });
});

describe("group graph", () => {
  const graph = groupGraph(7, users, stored);

  it("walks subgroups recursively and terminates on a cycle", () => {
    expect([...recursiveSubgroupIds(graph, [10])].sort()).toEqual([10, 11]);
    expect(recursiveMemberIds(graph, 10)).toEqual([2, 3]);
  });

  it("counts only active users as members (99 is not one)", () => {
    expect(graph.get(11)!.members).toEqual([3]);
  });

  it("reaches role-based members through a system subgroup", () => {
    expect(recursiveMemberIds(graph, 12)).toEqual([1]);
  });

  it("decides group-setting values of both forms", () => {
    expect(groupSettingIncludes(graph, 10, 3)).toBe(true);
    expect(groupSettingIncludes(graph, systemGroupId(7, "role:nobody"), 1)).toBe(false);
    expect(groupSettingIncludes(graph, { direct_members: [3], direct_subgroups: [] }, 3)).toBe(true);
    expect(groupSettingIncludes(graph, { direct_members: [], direct_subgroups: [12] }, 1)).toBe(true);
    expect(groupSettingIncludes(graph, { direct_members: [], direct_subgroups: [12] }, 2)).toBe(false);
  });
});
