import { describe, expect, it } from "vitest";
import { Role } from "../../shared/domain/roles.js";
import { useTestOrg } from "../support/local-stack.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

describe("PATCH /users/{user_id}: full_name", () => {
  it("renames a user and tells every active user with realm_user update {user_id, full_name}", async () => {
    // Prepare
    const target = await org.createUser("renamee");
    const cursors = await eventCursors(org, [org.users.member.id, org.users.bot.id, target.id]);
    // Act
    const res = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { full_name: "  Renamed Person " });
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, target.id)).full_name).toBe("Renamed Person");
    for (const id of [org.users.member.id, org.users.bot.id, target.id]) {
      expect(await eventsAfter(org, id, cursors.get(id)!)).toEqual([
        { type: "realm_user", op: "update", person: { user_id: target.id, full_name: "Renamed Person" } },
      ]);
    }
  });

  it("ignores a blank full_name, as Zulip does", async () => {
    const target = await org.createUser("keepname");
    const cursors = await eventCursors(org, [target.id]);
    const res = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { full_name: "   " });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, target.id)).full_name).toBe("keepname");
    expect(await eventsAfter(org, target.id, cursors.get(target.id)!)).toEqual([]);
  });

  for (const [name, msg] of [
    ["z".repeat(101), "Name too long!"],
    ["Back`tick", "Invalid characters in name!"],
    ['Quote"d', "Invalid characters in name!"],
    ["Pipe|7", "Invalid format!"],
  ] as const) {
    it(`refuses ${JSON.stringify(name.slice(0, 12))} with "${msg}" and changes nothing`, async () => {
      const res = await org.api(org.users.admin, "PATCH", `/users/${org.users.member2.id}`, { full_name: name });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err(msg));
      expect((await storedUser(org, org.users.member2.id)).full_name).toBe("Mia Member");
    });
  }

  it("renames a bot and tells its owner with realm_bot update too", async () => {
    const cursors = await eventCursors(org, [org.users.member.id, org.users.member2.id]);
    const res = await org.api(org.users.admin, "PATCH", `/users/${org.users.bot.id}`, { full_name: "Renamed Bot" });
    expect(res.body.result).toBe("success");
    expect((await storedUser(org, org.users.bot.id)).full_name).toBe("Renamed Bot");
    const person = { type: "realm_user", op: "update", person: { user_id: org.users.bot.id, full_name: "Renamed Bot" } };
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      person,
      { type: "realm_bot", op: "update", bot: { user_id: org.users.bot.id, full_name: "Renamed Bot" } },
    ]);
    expect(await eventsAfter(org, org.users.member2.id, cursors.get(org.users.member2.id)!)).toEqual([person]);
  });
});

describe("PATCH /users/{user_id}: role", () => {
  it("changes a role and tells every active user with realm_user update {user_id, role}", async () => {
    // Prepare
    const target = await org.createUser("promotee");
    const cursors = await eventCursors(org, [org.users.guest.id, target.id]);
    // Act
    const res = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { role: Role.MODERATOR });
    // Assess
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, target.id)).role).toBe(Role.MODERATOR);
    for (const id of [org.users.guest.id, target.id]) {
      expect(await eventsAfter(org, id, cursors.get(id)!)).toEqual([
        { type: "realm_user", op: "update", person: { user_id: target.id, role: Role.MODERATOR } },
      ]);
    }
    const seen = await org.api(org.users.member, "GET", `/users/${target.id}`);
    expect(seen.body.user).toMatchObject({ role: 300, is_admin: false, is_owner: false, is_guest: false });
  });

  it("sends one event per changed property when name and role change together", async () => {
    const target = await org.createUser("both");
    const cursors = await eventCursors(org, [target.id]);
    const res = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { full_name: "Both Changed", role: 600 });
    expect(res.body.result).toBe("success");
    expect(await eventsAfter(org, target.id, cursors.get(target.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: target.id, role: 600 } },
      { type: "realm_user", op: "update", person: { user_id: target.id, full_name: "Both Changed" } },
    ]);
  });

  it("writes nothing and sends nothing when the role is unchanged", async () => {
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await org.api(org.users.admin, "PATCH", `/users/${org.users.member.id}`, { role: 400 });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([]);
  });

  it("lets an owner make someone an owner, and take it back", async () => {
    const target = await org.createUser("co-owner");
    const up = await org.api(org.users.owner, "PATCH", `/users/${target.id}`, { role: Role.OWNER });
    expect(up.body.result).toBe("success");
    expect((await storedUser(org, target.id)).role).toBe(Role.OWNER);
    const down = await org.api(org.users.owner, "PATCH", `/users/${target.id}`, { role: Role.MEMBER });
    expect(down.body.result).toBe("success");
    expect((await storedUser(org, target.id)).role).toBe(Role.MEMBER);
  });

  it("refuses an administrator granting the owner role: Must be an organization owner", async () => {
    const target = await org.createUser("wannabe");
    const res = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { role: Role.OWNER });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("Must be an organization owner"));
    expect((await storedUser(org, target.id)).role).toBe(Role.MEMBER);
  });

  it("refuses an administrator removing the owner role: Must be an organization owner", async () => {
    const res = await org.api(org.users.admin, "PATCH", `/users/${org.users.owner.id}`, { role: Role.ADMINISTRATOR });
    expect(res.body).toEqual(err("Must be an organization owner"));
    expect((await storedUser(org, org.users.owner.id)).role).toBe(Role.OWNER);
  });

  it("lets an administrator rename an owner (only the role needs an owner)", async () => {
    const target = await org.createUser("renamed-owner", Role.OWNER);
    const res = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { full_name: "Owner Renamed" });
    expect(res.body.result).toBe("success");
    expect((await storedUser(org, target.id)).full_name).toBe("Owner Renamed");
  });

  it("refuses to remove the owner role from the only owner", async () => {
    // The seeded owner is the only human owner unless a test made another; count them first.
    const members = (await org.api(org.users.owner, "GET", "/users")).body.members as any[];
    const owners = members.filter((m) => m.is_owner && m.is_active && !m.is_bot).map((m) => m.user_id);
    // Demote every other owner so the seeded one is alone.
    for (const id of owners.filter((id) => id !== org.users.owner.id)) {
      await org.api(org.users.owner, "PATCH", `/users/${id}`, { role: Role.MEMBER });
    }
    const res = await org.api(org.users.owner, "PATCH", `/users/${org.users.owner.id}`, { role: Role.ADMINISTRATOR });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("The owner permission cannot be removed from the only organization owner."));
    expect((await storedUser(org, org.users.owner.id)).role).toBe(Role.OWNER);
  });

  it("lets an owner step down once there is another owner", async () => {
    // Prepare: a second owner who then demotes the first... on a fresh pair.
    const a = await org.createUser("owner-a", Role.OWNER);
    const res = await org.api(a, "PATCH", `/users/${a.id}`, { role: Role.ADMINISTRATOR });
    expect(res.body.result).toBe("success");
    expect((await storedUser(org, a.id)).role).toBe(Role.ADMINISTRATOR);
  });

  it("never lets two concurrent demotions remove the last two owners", async () => {
    // Prepare: exactly two human owners, the seeded one and x.
    const x = await org.createUser("owner-x", Role.OWNER);
    // Act: each owner demotes the other at the same time.
    const [r1, r2] = await Promise.all([
      org.api(org.users.owner, "PATCH", `/users/${x.id}`, { role: Role.MEMBER }),
      org.api(x, "PATCH", `/users/${org.users.owner.id}`, { role: Role.MEMBER }),
    ]);
    // Assess: at least one owner remains whatever the interleaving.
    const roles = [(await storedUser(org, org.users.owner.id)).role, (await storedUser(org, x.id)).role];
    expect(roles).toContain(Role.OWNER);
    const results = [r1.body.result, r2.body.result];
    expect(results).toContain("success");
    // Restore: the seeded owner stays an owner for the other tests.
    if (roles[0] !== Role.OWNER) {
      await org.api(x, "PATCH", `/users/${org.users.owner.id}`, { role: Role.OWNER });
    }
    expect((await storedUser(org, org.users.owner.id)).role).toBe(Role.OWNER);
  });

  it("refuses making a guest an administrator (spec BAD_REQUEST) and leaves the role", async () => {
    const guest = await org.createUser("guesty", Role.GUEST);
    for (const role of [Role.ADMINISTRATOR, Role.OWNER]) {
      const res = await org.api(org.users.owner, "PATCH", `/users/${guest.id}`, { role });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err("Guests cannot be organization administrators"));
      expect((await storedUser(org, guest.id)).role).toBe(Role.GUEST);
    }
    // Through member first, it works.
    expect((await org.api(org.users.owner, "PATCH", `/users/${guest.id}`, { role: Role.MEMBER })).body.result).toBe("success");
    expect((await org.api(org.users.owner, "PATCH", `/users/${guest.id}`, { role: Role.ADMINISTRATOR })).body.result).toBe(
      "success",
    );
  });

  it("refuses an unknown role value and changes nothing", async () => {
    const res = await org.api(org.users.admin, "PATCH", `/users/${org.users.member2.id}`, { role: 250 });
    expect(res.body).toEqual(err("Invalid role"));
    const notInt = await org.api(org.users.admin, "PATCH", `/users/${org.users.member2.id}`, { role: "admin" });
    expect(notInt.body).toEqual(err('Argument "role" is not valid JSON.'));
    expect((await storedUser(org, org.users.member2.id)).role).toBe(Role.MEMBER);
  });

  it("validates everything before writing: a bad name also blocks a valid role change", async () => {
    const target = await org.createUser("atomic");
    const res = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { role: Role.MODERATOR, full_name: "Bad*" });
    expect(res.body).toEqual(err("Invalid characters in name!"));
    const stored = await storedUser(org, target.id);
    expect(stored.role).toBe(Role.MEMBER);
    expect(stored.full_name).toBe("atomic");
  });
});

describe("PATCH /users/{user_id}: profile_data", () => {
  it("refuses a field ID that does not exist", async () => {
    const res = await org.api(org.users.admin, "PATCH", `/users/${org.users.member2.id}`, {
      profile_data: [{ id: 9, value: "x" }],
    });
    expect(res.body).toEqual(err("Field id 9 not found."));
    expect((await storedUser(org, org.users.member2.id)).profile_data).toEqual({});
  });

  it("accepts an empty list", async () => {
    const res = await org.api(org.users.admin, "PATCH", `/users/${org.users.member2.id}`, { profile_data: [] });
    expect(res.body).toEqual({ result: "success", msg: "" });
  });

  it("refuses a malformed entry", async () => {
    const res = await org.api(org.users.admin, "PATCH", `/users/${org.users.member2.id}`, {
      profile_data: [{ id: "one", value: "x" }],
    });
    expect(res.body).toEqual(err('profile_data[0]["id"] is not an integer'));
  });
});

describe("PATCH /users/{user_id}: access", () => {
  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who}: Insufficient permission, nothing changes`, async () => {
      const res = await org.api(org.users[who], "PATCH", `/users/${org.users.member2.id}`, {
        full_name: "Hijacked",
        role: Role.ADMINISTRATOR,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err("Insufficient permission"));
      const stored = await storedUser(org, org.users.member2.id);
      expect(stored.full_name).toBe("Mia Member");
      expect(stored.role).toBe(Role.MEMBER);
    });
  }

  it("refuses a bot's owner who is not an administrator (administrators only, per the spec)", async () => {
    const res = await org.api(org.users.member, "PATCH", `/users/${org.users.bot.id}`, { full_name: "Mine" });
    expect(res.body).toEqual(err("Insufficient permission"));
  });

  it("answers No such user for an unknown ID, even to a member", async () => {
    const res = await org.api(org.users.member, "PATCH", "/users/999999", { full_name: "Ghost" });
    expect(res.body).toEqual(err("No such user"));
  });

  it("answers Invalid user_id for a path that is not an ID", async () => {
    const res = await org.api(org.users.admin, "PATCH", "/users/member@test.example", { full_name: "Mail" });
    expect(res.body).toEqual(err("Invalid user_id"));
  });

  it("updates a deactivated user", async () => {
    const gone = await org.createUser("gone-rename");
    await org.api(org.users.admin, "DELETE", `/users/${gone.id}`);
    const res = await org.api(org.users.admin, "PATCH", `/users/${gone.id}`, { full_name: "Still Renamable" });
    expect(res.body.result).toBe("success");
    expect((await storedUser(org, gone.id)).full_name).toBe("Still Renamable");
  });
});
