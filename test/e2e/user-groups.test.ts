import { describe, expect, it } from "vitest";
import { systemGroupId, type SystemGroupName } from "../../shared/domain/realm-settings.js";
import { Role } from "../../shared/domain/roles.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const ok = { result: "success", msg: "" };
const sys = (name: SystemGroupName) => systemGroupId(org.realm.id, name);

function create(user: TestUser, name: string, members: number[], extra: Record<string, unknown> = {}) {
  return org.api(user, "POST", "/user_groups/create", { name, description: `${name} team`, members, ...extra });
}

async function listGroups(user: TestUser = org.users.owner): Promise<Record<string, any>[]> {
  const res = await org.api(user, "GET", "/user_groups");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user_groups;
}

async function groupNamed(name: string): Promise<Record<string, any>> {
  const group = (await listGroups()).find((g) => g.name === name);
  if (!group) throw new Error(`no group ${name}`);
  return group;
}

/** Creates a group as `user` (asserting success) and returns its API object. */
async function createGroup(user: TestUser, name: string, members: number[], extra: Record<string, unknown> = {}) {
  const res = await create(user, name, members, extra);
  expect(res.body, name).toEqual(ok);
  return groupNamed(name);
}

async function registeredGroups(user: TestUser): Promise<Record<string, any>[]> {
  const res = await org.api(user, "POST", "/register", { fetch_event_types: JSON.stringify(["realm_user_groups"]) });
  expect(res.status).toBe(200);
  return res.body.realm_user_groups;
}

describe("GET /user_groups", () => {
  it("lists the system groups with role-based members, ordered by ID, to members and administrators", async () => {
    const { owner, admin, moderator, member, member2, guest, bot } = org.users;
    for (const user of [owner, admin, moderator, member, member2]) {
      const groups = await listGroups(user);
      const system = groups.filter((g) => g.is_system_group);
      expect(system.map((g) => g.name)).toEqual([
        "role:internet",
        "role:owners",
        "role:administrators",
        "role:moderators",
        "role:fullmembers",
        "role:members",
        "role:everyone",
        "role:nobody",
      ]);
      expect(groups.map((g) => g.id)).toEqual([...groups.map((g) => g.id)].sort((a, b) => a - b));
      const byName = Object.fromEntries(system.map((g) => [g.name, g]));
      expect(byName["role:owners"]).toEqual({
        id: sys("role:owners"),
        name: "role:owners",
        description: "Owners of this organization",
        members: [owner.id],
        direct_subgroup_ids: [],
        is_system_group: true,
        can_manage_group: sys("role:nobody"),
        can_mention_group: sys("role:nobody"),
      });
      expect(byName["role:administrators"]!.members).toEqual([admin.id]);
      expect(byName["role:moderators"]!.members).toEqual([moderator.id]);
      expect(byName["role:everyone"]!.members).toContain(guest.id);
      expect(byName["role:fullmembers"]!.members).toEqual(expect.arrayContaining([member.id, member2.id, bot.id]));
    }
  });

  it("refuses guests and bots", async () => {
    expect((await org.api(org.users.guest, "GET", "/user_groups")).body).toEqual(err("Not allowed for guest users"));
    expect((await org.api(org.users.bot, "GET", "/user_groups")).body).toEqual(
      err("This endpoint does not accept bot requests."),
    );
  });
});

describe("POST /user_groups/create", () => {
  it("creates a group, tells a second client, and shows it in GET and register", async () => {
    const { member, member2, admin } = org.users;
    const watcher = queueClient(org, admin);
    await watcher.register({ event_types: ["user_group"] });
    const res = await create(member, "frontend", [member2.id, member.id, member2.id]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ok);
    const group = await groupNamed("frontend");
    expect(group).toEqual({
      id: group.id,
      name: "frontend",
      description: "frontend team",
      members: [member.id, member2.id].sort((a, b) => a - b),
      direct_subgroup_ids: [],
      is_system_group: false,
      can_manage_group: sys("role:nobody"),
      can_mention_group: sys("role:everyone"),
    });
    expect(group.id).toBeLessThan(sys("role:internet"));
    const event = await watcher.waitFor((e) => e.type === "user_group", { dontBlock: true });
    expect(event).toEqual({ id: event.id, type: "user_group", op: "add", group });
    expect((await registeredGroups(member2)).find((g) => g.id === group.id)).toEqual(group);
  });

  it("lets every role but guests create groups", async () => {
    const { owner, admin, moderator, member, bot, guest } = org.users;
    for (const [i, user] of [owner, admin, moderator, member, bot].entries()) {
      expect((await create(user, `by-role-${i}`, [])).body).toEqual(ok);
    }
    expect((await create(guest, "by-guest", [])).body).toEqual(err("Insufficient permission"));
    expect((await listGroups()).some((g) => g.name === "by-guest")).toBe(false);
  });

  it("accepts group-setting values and stores an anonymous one", async () => {
    const { member, member2 } = org.users;
    const group = await createGroup(member, "settings-group", [member.id], {
      can_mention_group: sys("role:administrators"),
      can_manage_group: { direct_members: [member2.id], direct_subgroups: [sys("role:moderators")] },
    });
    expect(group.can_mention_group).toBe(sys("role:administrators"));
    expect(group.can_manage_group).toEqual({ direct_members: [member2.id], direct_subgroups: [sys("role:moderators")] });
    // An anonymous value of one subgroup and no users is that group.
    const single = await createGroup(member, "settings-single", [], {
      can_mention_group: { direct_members: [], direct_subgroups: [sys("role:members")] },
    });
    expect(single.can_mention_group).toBe(sys("role:members"));
  });

  it("refuses bad names, members and settings with Zulip's errors, writing nothing", async () => {
    const { member } = org.users;
    await createGroup(member, "Taken-Name", []);
    const before = await listGroups();
    const cases: [Record<string, unknown>, unknown][] = [
      [{ name: "   " }, err("User group name can't be empty!")],
      [{ name: "x".repeat(101) }, err("User group name cannot exceed 100 characters.")],
      [{ name: "role:mine" }, err("User group name cannot start with 'role:'.")],
      [{ name: "@mine" }, err("User group name cannot start with '@'.")],
      [{ name: "channel:mine" }, err("User group name cannot start with 'channel:'.")],
      [{ name: "taken-name" }, err("User group 'taken-name' already exists.")],
      [{ members: [999_999] }, err("Invalid user ID: 999999")],
      [{ members: "[1," }, err('Argument "members" is not valid JSON.')],
      [{ can_mention_group: 999_999 }, err("Invalid user group")],
      [{ can_mention_group: sys("role:owners") }, err("'can_mention_group' setting cannot be set to 'role:owners' group.")],
      [{ can_mention_group: sys("role:internet") }, err("'can_mention_group' setting cannot be set to 'role:internet' group.")],
      [{ can_manage_group: sys("role:everyone") }, err("'can_manage_group' setting cannot be set to 'role:everyone' group.")],
      [{ can_manage_group: { direct_members: [999_999], direct_subgroups: [] } }, err("Invalid user ID: 999999")],
      [{ can_manage_group: { direct_members: [], direct_subgroups: [999_999, 1] } }, err("Invalid user group ID: 999999")],
      [{ description: "d".repeat(1025) }, err("description is too long (limit: 1024 characters)")],
    ];
    for (const [params, expected] of cases) {
      const res = await org.api(member, "POST", "/user_groups/create", { name: "fresh", description: "", members: [], ...params });
      expect(res.body, JSON.stringify(params)).toEqual(expected);
    }
    const missing = await org.api(member, "POST", "/user_groups/create", { name: "fresh", members: "[]" });
    expect(missing.body).toEqual({
      result: "error",
      msg: "Missing 'description' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "description",
    });
    expect(await listGroups()).toEqual(before);
  });
});

describe("PATCH /user_groups/{user_group_id}", () => {
  it("renames and redescribes with one update event; register follows", async () => {
    const { member, member2 } = org.users;
    const group = await createGroup(member, "patch-me", [member.id]);
    const watcher = queueClient(org, member2);
    await watcher.register({ event_types: ["user_group"] });
    const res = await org.api(member, "PATCH", `/user_groups/${group.id}`, { name: "Patched", description: "new words" });
    expect(res.body).toEqual(ok);
    const event = await watcher.waitFor((e) => e.type === "user_group", { dontBlock: true });
    expect(event).toEqual({
      id: event.id,
      type: "user_group",
      op: "update",
      group_id: group.id,
      data: { name: "Patched", description: "new words" },
    });
    expect((await registeredGroups(member2)).find((g) => g.id === group.id)).toMatchObject({
      name: "Patched",
      description: "new words",
    });
    // The old name is free again; the new one is taken.
    expect((await create(member2, "patch-me", [])).body).toEqual(ok);
    expect((await create(member2, "PATCHED", [])).body).toEqual(err("User group 'PATCHED' already exists."));
    // A case-only rename of its own name is allowed.
    expect((await org.api(member, "PATCH", `/user_groups/${group.id}`, { name: "patched" })).body).toEqual(ok);
  });

  it("changes a group setting with old/new, refusing a stale old value", async () => {
    const { member, member2 } = org.users;
    const group = await createGroup(member, "patch-setting", [member.id]);
    const watcher = queueClient(org, member2);
    await watcher.register({ event_types: ["user_group"] });
    const stale = await org.api(member, "PATCH", `/user_groups/${group.id}`, {
      can_mention_group: { new: sys("role:moderators"), old: sys("role:members") },
    });
    expect(stale.body).toEqual(err("'old' value does not match the expected value."));
    const res = await org.api(member, "PATCH", `/user_groups/${group.id}`, {
      can_mention_group: { new: sys("role:moderators"), old: sys("role:everyone") },
    });
    expect(res.body).toEqual(ok);
    const event = await watcher.waitFor((e) => e.type === "user_group", { dontBlock: true });
    expect(event).toMatchObject({ op: "update", group_id: group.id, data: { can_mention_group: sys("role:moderators") } });
    expect((await groupNamed("patch-setting")).can_mention_group).toBe(sys("role:moderators"));
  });

  it("follows Zulip's permission rules for each role", async () => {
    const { owner, admin, moderator, member, member2, guest, bot } = org.users;
    const group = await createGroup(member, "perm-group", [member.id]);
    const patch = (user: TestUser, description: string) =>
      org.api(user, "PATCH", `/user_groups/${group.id}`, { description });
    // Members of the group, moderators and administrators may; other members, bots and guests may not.
    for (const user of [member, moderator, admin, owner]) expect((await patch(user, `by ${user.id}`)).body).toEqual(ok);
    for (const user of [member2, bot, guest]) {
      expect((await patch(user, "nope")).body).toEqual(err("Insufficient permission"));
    }
    // can_manage_group grants it too.
    await org.api(member, "PATCH", `/user_groups/${group.id}`, {
      can_manage_group: { new: { direct_members: [member2.id], direct_subgroups: [] } },
    });
    expect((await patch(member2, "now allowed")).body).toEqual(ok);
    expect((await groupNamed("perm-group")).description).toBe("now allowed");
  });

  it("refuses unknown and system groups and empty updates", async () => {
    const { owner, member } = org.users;
    const group = await createGroup(member, "patch-errors", [member.id]);
    expect((await org.api(owner, "PATCH", "/user_groups/999999", { name: "x" })).body).toEqual(err("Invalid user group"));
    expect((await org.api(owner, "PATCH", `/user_groups/${sys("role:members")}`, { name: "x" })).body).toEqual(
      err("Insufficient permission"),
    );
    expect((await org.api(member, "PATCH", `/user_groups/${group.id}`, {})).body).toEqual(err("No new data supplied"));
    expect((await org.api(member, "PATCH", `/user_groups/${group.id}`, { name: "role:x" })).body).toEqual(
      err("User group name cannot start with 'role:'."),
    );
    expect((await org.api(member, "PATCH", "/user_groups/abc", { name: "x" })).body).toEqual(err("Invalid user_group_id"));
  });
});

describe("POST /user_groups/{user_group_id}/members", () => {
  it("adds and removes members with events, and GET follows", async () => {
    const { member, member2, moderator, admin } = org.users;
    const group = await createGroup(member, "members-group", [member.id]);
    const watcher = queueClient(org, admin);
    await watcher.register({ event_types: ["user_group"] });
    const res = await org.api(member, "POST", `/user_groups/${group.id}/members`, { add: [member2.id, moderator.id] });
    expect(res.body).toEqual(ok);
    const added = await watcher.waitFor((e) => e.op === "add_members", { dontBlock: true });
    expect(added).toEqual({ id: added.id, type: "user_group", op: "add_members", group_id: group.id, user_ids: [member2.id, moderator.id] });
    expect((await org.api(member, "POST", `/user_groups/${group.id}/members`, { delete: [member.id] })).body).toEqual(ok);
    const removed = await watcher.waitFor((e) => e.op === "remove_members", { dontBlock: true });
    expect(removed).toMatchObject({ group_id: group.id, user_ids: [member.id] });
    const members = await org.api(member2, "GET", `/user_groups/${group.id}/members`);
    expect(members.body).toEqual({ ...ok, members: [member2.id, moderator.id].sort((a, b) => a - b) });
    expect((await registeredGroups(member2)).find((g) => g.id === group.id)!.members).toEqual(members.body.members);
    const is = (userId: number) => org.api(member2, "GET", `/user_groups/${group.id}/members/${userId}`);
    expect((await is(moderator.id)).body).toEqual({ ...ok, is_user_group_member: true });
    expect((await is(member.id)).body).toEqual({ ...ok, is_user_group_member: false });
    expect((await is(999_999)).body).toEqual(err("No such user"));
  });

  it("refuses duplicates, strangers, unknown users and empty requests", async () => {
    const { member, member2, guest, bot } = org.users;
    const group = await createGroup(member, "members-errors", [member.id]);
    const post = (user: TestUser, params: Record<string, unknown>) => org.api(user, "POST", `/user_groups/${group.id}/members`, params);
    expect((await post(member, { add: [member.id] })).body).toEqual(err(`User ${member.id} is already a member of this group`));
    expect((await post(member, { delete: [member2.id] })).body).toEqual(
      err(`There is no member '${member2.id}' in this user group`),
    );
    expect((await post(member, { add: [999_999] })).body).toEqual(err("Invalid user ID: 999999"));
    expect((await post(member, {})).body).toEqual(err('Nothing to do. Specify at least one of "add" or "delete".'));
    expect((await post(member2, { add: [member2.id] })).body).toEqual(err("Insufficient permission"));
    expect((await post(guest, { add: [guest.id] })).body).toEqual(err("Insufficient permission"));
    expect((await post(bot, { add: [bot.id] })).body).toEqual(err("Insufficient permission"));
    // A rejected add with a valid delete writes nothing.
    expect((await post(member, { add: [member.id], delete: [member.id] })).body).toEqual(
      err(`User ${member.id} is already a member of this group`),
    );
    expect((await org.api(member, "GET", `/user_groups/${group.id}/members`)).body.members).toEqual([member.id]);
    expect((await org.api(member, "POST", "/user_groups/999999/members", { add: [member2.id] })).body).toEqual(
      err("Invalid user group"),
    );
    expect((await org.api(member, "POST", `/user_groups/${sys("role:members")}/members`, { add: [member2.id] })).body).toEqual(
      err("Insufficient permission"),
    );
  });

  it("refuses the membership reads to guests and bots, and unknown groups to anyone", async () => {
    const { member, guest, bot } = org.users;
    const group = await createGroup(member, "members-read", [member.id]);
    for (const path of [`/user_groups/${group.id}/members`, `/user_groups/${group.id}/members/${member.id}`, `/user_groups/${group.id}/subgroups`]) {
      expect((await org.api(guest, "GET", path)).body).toEqual(err("Not allowed for guest users"));
      expect((await org.api(bot, "GET", path)).body).toEqual(err("This endpoint does not accept bot requests."));
    }
    expect((await org.api(member, "GET", "/user_groups/999999/members")).body).toEqual(err("Invalid user group"));
    expect((await org.api(member, "GET", "/user_groups/999999/subgroups")).body).toEqual(err("Invalid user group"));
  });

  it("keeps system groups in step with roles", async () => {
    const { owner, admin } = org.users;
    const target = await org.createUser("role-changer");
    const direct = async (name: SystemGroupName) =>
      (await org.api(owner, "GET", `/user_groups/${sys(name)}/members`, { direct_member_only: true })).body.members;
    expect(await direct("role:fullmembers")).toContain(target.id);
    expect((await org.api(admin, "PATCH", `/users/${target.id}`, { role: Role.MODERATOR })).body).toEqual(ok);
    expect(await direct("role:moderators")).toContain(target.id);
    expect(await direct("role:fullmembers")).not.toContain(target.id);
    // Recursive: the members group holds everyone from moderators up.
    const all = (await org.api(owner, "GET", `/user_groups/${sys("role:members")}/members`)).body.members;
    expect(all).toEqual(expect.arrayContaining([owner.id, admin.id, target.id]));
    expect(all).not.toContain(org.users.guest.id);
  });
});

describe("POST /user_groups/{user_group_id}/subgroups", () => {
  it("adds and removes subgroups with events; members and subgroups are recursive unless direct only", async () => {
    const { member, member2, moderator, admin } = org.users;
    const top = await createGroup(member, "sub-top", [member.id]);
    const middle = await createGroup(member, "sub-middle", [member2.id]);
    const bottom = await createGroup(member, "sub-bottom", [moderator.id]);
    const watcher = queueClient(org, admin);
    await watcher.register({ event_types: ["user_group"] });
    expect((await org.api(member, "POST", `/user_groups/${top.id}/subgroups`, { add: [middle.id] })).body).toEqual(ok);
    const event = await watcher.waitFor((e) => e.op === "add_subgroups", { dontBlock: true });
    expect(event).toEqual({ id: event.id, type: "user_group", op: "add_subgroups", group_id: top.id, direct_subgroup_ids: [middle.id] });
    expect((await org.api(member2, "POST", `/user_groups/${middle.id}/subgroups`, { add: [bottom.id] })).body).toEqual(ok);

    const get = (path: string, params: Record<string, unknown> = {}) => org.api(member, "GET", path, params).then((r) => r.body);
    expect(await get(`/user_groups/${top.id}/subgroups`)).toEqual({ ...ok, subgroups: [middle.id, bottom.id] });
    expect(await get(`/user_groups/${top.id}/subgroups`, { direct_subgroup_only: true })).toEqual({ ...ok, subgroups: [middle.id] });
    expect((await get(`/user_groups/${top.id}/members`)).members).toEqual([member.id, member2.id, moderator.id].sort((a, b) => a - b));
    expect((await get(`/user_groups/${top.id}/members`, { direct_member_only: true })).members).toEqual([member.id]);
    expect((await get(`/user_groups/${top.id}/members/${moderator.id}`)).is_user_group_member).toBe(true);
    expect((await get(`/user_groups/${top.id}/members/${moderator.id}`, { direct_member_only: true })).is_user_group_member).toBe(false);
    expect((await registeredGroups(member)).find((g) => g.id === top.id)!.direct_subgroup_ids).toEqual([middle.id]);

    // Cycles are refused, at any depth.
    expect((await org.api(admin, "POST", `/user_groups/${bottom.id}/subgroups`, { add: [top.id] })).body).toEqual(
      err(`User group ${bottom.id} is already a subgroup of one of the passed subgroups.`),
    );
    expect((await org.api(member, "POST", `/user_groups/${top.id}/subgroups`, { add: [top.id] })).body).toEqual(
      err(`User group ${top.id} is already a subgroup of one of the passed subgroups.`),
    );
    expect((await org.api(member, "POST", `/user_groups/${top.id}/subgroups`, { add: [middle.id] })).body).toEqual(
      err(`User group ${middle.id} is already a subgroup of this group.`),
    );
    expect((await org.api(member, "POST", `/user_groups/${top.id}/subgroups`, { delete: [bottom.id] })).body).toEqual(
      err(`User group ${bottom.id} is not a subgroup of this group.`),
    );
    expect((await org.api(member, "POST", `/user_groups/${top.id}/subgroups`, { add: [999_999] })).body).toEqual(
      err("Invalid user group ID: 999999"),
    );
    expect((await org.api(member, "POST", `/user_groups/${top.id}/subgroups`, {})).body).toEqual(
      err('Nothing to do. Specify at least one of "add" or "delete".'),
    );
    expect((await org.api(org.users.guest, "POST", `/user_groups/${top.id}/subgroups`, { delete: [middle.id] })).body).toEqual(
      err("Insufficient permission"),
    );

    expect((await org.api(member, "POST", `/user_groups/${top.id}/subgroups`, { delete: [middle.id] })).body).toEqual(ok);
    const removed = await watcher.waitFor((e) => e.op === "remove_subgroups", { dontBlock: true });
    expect(removed).toMatchObject({ group_id: top.id, direct_subgroup_ids: [middle.id] });
    expect((await get(`/user_groups/${top.id}/members`)).members).toEqual([member.id]);
  });

  it("takes system groups as subgroups: their members follow roles", async () => {
    const { member, admin, owner } = org.users;
    // The creator is no member of an empty group: only its members, moderators and administrators manage it.
    const empty = await createGroup(member, "without-creator", []);
    expect((await org.api(member, "POST", `/user_groups/${empty.id}/subgroups`, { add: [sys("role:administrators")] })).body).toEqual(
      err("Insufficient permission"),
    );
    const group = await createGroup(member, "with-admins", [member.id]);
    expect((await org.api(member, "POST", `/user_groups/${group.id}/subgroups`, { add: [sys("role:administrators")] })).body).toEqual(ok);
    const members = (await org.api(member, "GET", `/user_groups/${group.id}/members`)).body.members;
    expect(members).toEqual([member.id, owner.id, admin.id].sort((a, b) => a - b));
  });
});

describe("DELETE /user_groups/{user_group_id}", () => {
  it("deletes a group, takes it out of its supergroups, frees its name and tells a second client", async () => {
    const { member, member2 } = org.users;
    const parent = await createGroup(member, "del-parent", [member.id]);
    const child = await createGroup(member, "del-child", [member.id]);
    await org.api(member, "POST", `/user_groups/${parent.id}/subgroups`, { add: [child.id] });
    const watcher = queueClient(org, member2);
    await watcher.register({ event_types: ["user_group"] });
    expect((await org.api(member, "DELETE", `/user_groups/${child.id}`)).body).toEqual(ok);
    const event = await watcher.waitFor((e) => e.type === "user_group", { dontBlock: true });
    expect(event).toEqual({ id: event.id, type: "user_group", op: "remove", group_id: child.id });
    const registered = await registeredGroups(member2);
    expect(registered.some((g) => g.id === child.id)).toBe(false);
    expect(registered.find((g) => g.id === parent.id)!.direct_subgroup_ids).toEqual([]);
    expect((await org.api(member, "GET", `/user_groups/${child.id}/members`)).body).toEqual(err("Invalid user group"));
    expect((await create(member, "DEL-CHILD", [])).body).toEqual(ok);
  });

  it("refuses strangers, guests, system and unknown groups", async () => {
    const { member, member2, guest, owner } = org.users;
    const group = await createGroup(member, "del-refused", [member.id]);
    expect((await org.api(member2, "DELETE", `/user_groups/${group.id}`)).body).toEqual(err("Insufficient permission"));
    expect((await org.api(guest, "DELETE", `/user_groups/${group.id}`)).body).toEqual(err("Insufficient permission"));
    expect((await org.api(owner, "DELETE", `/user_groups/${sys("role:owners")}`)).body).toEqual(err("Insufficient permission"));
    expect((await org.api(owner, "DELETE", "/user_groups/999999")).body).toEqual(err("Invalid user group"));
    expect((await groupNamed("del-refused")).id).toBe(group.id);
    expect((await org.api(org.users.admin, "DELETE", `/user_groups/${group.id}`)).body).toEqual(ok);
  });
});

describe("concurrent changes", () => {
  it("loses no member when many adds race on one group", async () => {
    const { member } = org.users;
    const group = await createGroup(member, "race-members", [member.id]);
    const users = await Promise.all([0, 1, 2, 3].map((i) => org.createUser(`racer-${i}`)));
    const results = await Promise.all(
      users.map((u) => org.api(member, "POST", `/user_groups/${group.id}/members`, { add: [u.id] })),
    );
    for (const r of results) expect(r.body).toEqual(ok);
    const members = (await org.api(member, "GET", `/user_groups/${group.id}/members`)).body.members;
    expect(members).toEqual([member.id, ...users.map((u) => u.id)].sort((a, b) => a - b));
  });

  it("never closes a cycle when two opposite subgroup adds race", async () => {
    const { member } = org.users;
    const a = await createGroup(member, "race-a", [member.id]);
    const b = await createGroup(member, "race-b", [member.id]);
    const [ab, ba] = await Promise.all([
      org.api(member, "POST", `/user_groups/${a.id}/subgroups`, { add: [b.id] }),
      org.api(member, "POST", `/user_groups/${b.id}/subgroups`, { add: [a.id] }),
    ]);
    const outcomes = [ab.body.result, ba.body.result].sort();
    expect(outcomes).toEqual(["error", "success"]);
  });
});
