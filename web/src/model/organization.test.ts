import { describe, expect, it } from "vitest";
import { applyOrganizationEvent } from "./organization.js";
import { applyUserGroupEvent, userGroupList, type UserGroup } from "./user-groups.js";
import type { ServerEvent } from "./types.js";

const group = (id: number, members: number[] = []): UserGroup => ({
  id,
  name: `g${id}`,
  description: "",
  members,
  direct_subgroup_ids: [],
  is_system_group: false,
  can_manage_group: 1,
  can_mention_group: 1,
});

const ev = (e: Record<string, unknown>) => ({ id: 5, ...e }) as unknown as ServerEvent;

describe("applyUserGroupEvent", () => {
  it("adds, updates, changes members and subgroups, and removes", () => {
    let groups = applyUserGroupEvent(new Map([[2, group(2)]]), ev({ type: "user_group", op: "add", group: group(1, [9]) }) as never);
    expect(userGroupList(groups).map((g) => g.id)).toEqual([1, 2]);
    groups = applyUserGroupEvent(groups, ev({ type: "user_group", op: "update", group_id: 1, data: { name: "Design", description: "d" } }) as never);
    expect(groups.get(1)).toMatchObject({ name: "Design", description: "d" });
    groups = applyUserGroupEvent(groups, ev({ type: "user_group", op: "add_members", group_id: 1, user_ids: [3, 9] }) as never);
    expect(groups.get(1)!.members).toEqual([9, 3]);
    groups = applyUserGroupEvent(groups, ev({ type: "user_group", op: "remove_members", group_id: 1, user_ids: [9] }) as never);
    expect(groups.get(1)!.members).toEqual([3]);
    groups = applyUserGroupEvent(groups, ev({ type: "user_group", op: "add_subgroups", group_id: 1, direct_subgroup_ids: [2] }) as never);
    expect(groups.get(1)!.direct_subgroup_ids).toEqual([2]);
    groups = applyUserGroupEvent(groups, ev({ type: "user_group", op: "remove", group_id: 2 }) as never);
    expect(userGroupList(groups).map((g) => g.id)).toEqual([1]);
  });
});

describe("applyOrganizationEvent", () => {
  it("keeps the organization's lists under register's names", () => {
    let s: Readonly<Record<string, unknown>> = { realm_user_settings_defaults: { emojiset: "google", enter_sends: false } };
    s = applyOrganizationEvent(s, ev({ type: "realm_linkifiers", realm_linkifiers: [{ id: 1, pattern: "#(?P<id>\\d+)", url_template: "https://x/{id}" }] }));
    expect(s.realm_linkifiers).toHaveLength(1);
    s = applyOrganizationEvent(s, ev({ type: "realm_playgrounds", realm_playgrounds: [] }));
    expect(s.realm_playgrounds).toEqual([]);
    s = applyOrganizationEvent(s, ev({ type: "default_streams", default_streams: [{ stream_id: 3 }] }));
    expect(s.realm_default_streams).toEqual([{ stream_id: 3 }]);
    s = applyOrganizationEvent(s, ev({ type: "realm_export", exports: [{ id: 7 }] }));
    expect(s.realm_exports).toEqual([{ id: 7 }]);
    s = applyOrganizationEvent(s, ev({ type: "realm_user_settings_defaults", op: "update", property: "enter_sends", value: true }));
    expect(s.realm_user_settings_defaults).toEqual({ emojiset: "google", enter_sends: true });
  });

  it("returns the same settings for other events, those with state of their own included", () => {
    const s = { realm_name: "x" };
    expect(applyOrganizationEvent(s, ev({ type: "heartbeat" }))).toBe(s);
    expect(applyOrganizationEvent(s, ev({ type: "realm_emoji", op: "update", realm_emoji: {} }))).toBe(s);
    expect(applyOrganizationEvent(s, ev({ type: "user_group", op: "remove", group_id: 1 }))).toBe(s);
  });
});
