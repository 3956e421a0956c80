import { describe, expect, it } from "vitest";
import { getUserIdByEmail } from "../../shared/data/users.js";
import { useTestOrg } from "../support/local-stack.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";

const org = useTestOrg();

const notAdmin = { result: "error", msg: "Must be an organization administrator", code: "BAD_REQUEST" };

async function emailTaken(email: string): Promise<boolean> {
  return (await getUserIdByEmail(org.stack.deps, org.realm.id, email)) !== undefined;
}

describe("POST /users", () => {
  it("creates a member who can then log in, and announces them with realm_user add", async () => {
    // Prepare
    const cursors = await eventCursors(org, [org.users.member.id, org.users.owner.id]);
    // Act
    const res = await org.api(org.users.admin, "POST", "/users", {
      email: "newbie@test.example",
      password: "newbie-pass",
      full_name: "  New User  ",
    });
    // Assess
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["msg", "result", "user_id"]);
    expect(res.body).toMatchObject({ result: "success", msg: "" });
    const user = await storedUser(org, res.body.user_id);
    expect(user).toMatchObject({
      delivery_email: "newbie@test.example",
      full_name: "New User",
      role: 400,
      is_active: true,
      is_bot: false,
    });
    const login = await org.api(null, "POST", "/fetch_api_key", { username: "newbie@test.example", password: "newbie-pass" });
    expect(login.body).toMatchObject({ result: "success", user_id: res.body.user_id });
    for (const id of [org.users.member.id, org.users.owner.id]) {
      const events = await eventsAfter(org, id, cursors.get(id)!);
      // The new user is announced first, then joins the default stream `general`.
      expect(events).toHaveLength(2);
      expect(events[0]).toMatchObject({
        type: "realm_user",
        op: "add",
        person: { user_id: res.body.user_id, full_name: "New User", role: 400, is_active: true },
      });
      expect(events[1]).toMatchObject({ type: "subscription", op: "peer_add", user_ids: [res.body.user_id] });
    }
  });

  it("lets an owner create users too", async () => {
    const res = await org.api(org.users.owner, "POST", "/users", {
      email: "by-owner@test.example",
      password: "secret-pass",
      full_name: "By Owner",
    });
    expect(res.body.result).toBe("success");
    expect(await emailTaken("by-owner@test.example")).toBe(true);
  });

  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who} with "Must be an organization administrator" and creates nothing`, async () => {
      const email = `from-${who}@test.example`;
      const res = await org.api(org.users[who], "POST", "/users", { email, password: "secret-pass", full_name: "X Y" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(notAdmin);
      expect(await emailTaken(email)).toBe(false);
    });
  }

  it("checks permission before parameters, as Zulip's require_realm_admin does", async () => {
    const res = await org.api(org.users.member, "POST", "/users", {});
    expect(res.body).toEqual(notAdmin);
  });

  it("refuses an email already in use, whatever its case", async () => {
    const res = await org.api(org.users.admin, "POST", "/users", {
      email: "MEMBER@test.example",
      password: "secret-pass",
      full_name: "Copy Cat",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Email 'MEMBER@test.example' already in use", code: "BAD_REQUEST" });
  });

  for (const email of ["not-an-email", "a@b", "two@@test.example", "spaces in@test.example", "x@test.123"]) {
    it(`refuses the invalid address ${JSON.stringify(email)} with "Bad name or username"`, async () => {
      const res = await org.api(org.users.admin, "POST", "/users", { email, password: "secret-pass", full_name: "Bad Mail" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg: "Bad name or username", code: "BAD_REQUEST" });
      expect(await emailTaken(email)).toBe(false);
    });
  }

  const badNames: [string, string][] = [
    ["   ", "Name must not be empty!"],
    ["x".repeat(101), "Name too long!"],
    ["Star*Name", "Invalid characters in name!"],
    ["At@Name", "Invalid characters in name!"],
    ["Bell\u0007Name", "Invalid characters in name!"],
    ["Ambiguous|15", "Invalid format!"],
  ];
  for (const [fullName, msg] of badNames) {
    it(`refuses the name ${JSON.stringify(fullName.slice(0, 20))} with "${msg}"`, async () => {
      const email = `name-${msg.length}-${fullName.length}@test.example`;
      const res = await org.api(org.users.admin, "POST", "/users", { email, password: "secret-pass", full_name: fullName });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
      expect(await emailTaken(email)).toBe(false);
    });
  }

  it("accepts a name of exactly 100 characters", async () => {
    const res = await org.api(org.users.admin, "POST", "/users", {
      email: "long-name@test.example",
      password: "secret-pass",
      full_name: "y".repeat(100),
    });
    expect(res.body.result).toBe("success");
  });

  it("refuses a password shorter than 6 characters", async () => {
    const res = await org.api(org.users.admin, "POST", "/users", {
      email: "weak@test.example",
      password: "12345",
      full_name: "Weak Pass",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "The password is too weak.", code: "BAD_REQUEST" });
    expect(await emailTaken("weak@test.example")).toBe(false);
  });

  for (const missing of ["email", "password", "full_name"]) {
    it(`requires ${missing}`, async () => {
      const params: Record<string, string> = { email: "req@test.example", password: "secret-pass", full_name: "Req" };
      delete params[missing];
      const res = await org.api(org.users.admin, "POST", "/users", params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: "error",
        msg: `Missing '${missing}' argument`,
        code: "REQUEST_VARIABLE_MISSING",
        var_name: missing,
      });
    });
  }
});
