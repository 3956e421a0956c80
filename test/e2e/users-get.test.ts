import { describe, expect, it } from "vitest";
import { gravatarUrl } from "../../shared/domain/avatar.js";
import { isoTimestamp } from "../../shared/wire/user.js";
import type { UserRecord } from "../../shared/data/records/user.js";

import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

/** The exact user object a viewer who may see the real email gets, with `client_gravatar=false`. */
function expectedUser(u: UserRecord, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    user_id: u.user_id,
    email: u.delivery_email,
    full_name: u.full_name,
    is_bot: u.is_bot,
    bot_type: u.is_bot ? u.bot_type : null,
    role: u.role,
    is_owner: u.role === 100,
    is_admin: u.role <= 200,
    is_billing_admin: false,
    is_guest: u.role === 600,
    is_active: true,
    avatar_url: gravatarUrl(u.delivery_email, 1),
    avatar_version: 1,
    timezone: "",
    date_joined: isoTimestamp(u.date_joined),
    ...(u.is_bot ? { bot_owner_id: u.bot_owner_id } : {}),
    ...overrides,
  };
}

describe("GET /users", () => {
  it("lists every seeded user and bot with exactly the spec's fields", async () => {
    // Prepare
    const r = org.records;
    // Act
    const res = await org.api(org.users.member, "GET", "/users", { client_gravatar: false });
    // Assess
    expect(res.status).toBe(200);
    expect(res.body.result).toBe("success");
    expect(res.body.msg).toBe("");
    const byId = new Map((res.body.members as any[]).map((m) => [m.user_id, m]));
    for (const u of [r.owner, r.admin, r.moderator, r.member, r.member2, r.guest]) {
      expect(byId.get(u.user_id)).toEqual(expectedUser(u));
    }
    expect(byId.get(r.bot.user_id)).toEqual(expectedUser(r.bot, { bot_type: 1, bot_owner_id: r.member.user_id }));
  });

  it("returns members in user-ID order", async () => {
    const res = await org.api(org.users.guest, "GET", "/users");
    const ids = (res.body.members as any[]).map((m) => m.user_id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.length).toBeGreaterThanOrEqual(7);
  });

  it("sends null avatar_url for gravatars by default (client_gravatar defaults to true)", async () => {
    const res = await org.api(org.users.member, "GET", "/users");
    for (const m of res.body.members as any[]) expect(m.avatar_url).toBeNull();
  });

  it("adds profile_data to humans, not bots, with include_custom_profile_fields", async () => {
    const res = await org.api(org.users.member, "GET", "/users", { include_custom_profile_fields: true });
    const members = res.body.members as any[];
    const human = members.find((m) => m.user_id === org.users.member2.id);
    const bot = members.find((m) => m.user_id === org.users.bot.id);
    expect(human.profile_data).toEqual({});
    expect(bot).not.toHaveProperty("profile_data");
    const plain = await org.api(org.users.member, "GET", "/users");
    expect((plain.body.members as any[]).find((m) => m.user_id === org.users.member2.id)).not.toHaveProperty(
      "profile_data",
    );
  });

  it("includes deactivated users with is_active false", async () => {
    // Prepare
    const leaver = await org.createUser("leaver");
    const del = await org.api(org.users.admin, "DELETE", `/users/${leaver.id}`);
    expect(del.body.result).toBe("success");
    // Act
    const res = await org.api(org.users.member, "GET", "/users");
    // Assess
    const entry = (res.body.members as any[]).find((m) => m.user_id === leaver.id);
    expect(entry).toMatchObject({ user_id: leaver.id, is_active: false, full_name: "leaver" });
  });

  it("refuses a non-boolean client_gravatar", async () => {
    const res = await org.api(org.users.member, "GET", "/users", { client_gravatar: "yes" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: 'Argument "client_gravatar" is not valid JSON.', code: "BAD_REQUEST" });
  });
});

describe("GET /users/{user_id}", () => {
  it("returns one user as `user`", async () => {
    const res = await org.api(org.users.guest, "GET", `/users/${org.users.admin.id}`, { client_gravatar: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", user: expectedUser(org.records.admin) });
  });

  it("returns a bot with bot_type and bot_owner_id", async () => {
    const res = await org.api(org.users.member2, "GET", `/users/${org.users.bot.id}`, { client_gravatar: false });
    expect(res.body.user).toEqual(expectedUser(org.records.bot, { bot_type: 1, bot_owner_id: org.users.member.id }));
  });

  it("answers No such user for an unknown ID", async () => {
    const res = await org.api(org.users.member, "GET", "/users/999999");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
  });

  it("includes profile_data with include_custom_profile_fields", async () => {
    const res = await org.api(org.users.member, "GET", `/users/${org.users.member2.id}`, {
      include_custom_profile_fields: true,
    });
    expect(res.body.user.profile_data).toEqual({});
  });
});

describe("GET /users/{email}", () => {
  it("finds a user by their API email, case-insensitively", async () => {
    const res = await org.api(org.users.member, "GET", "/users/ADMIN@test.example", { client_gravatar: false });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual(expectedUser(org.records.admin));
  });

  it("answers No such user for an unknown email", async () => {
    const res = await org.api(org.users.member, "GET", "/users/nobody@test.example");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
  });
});

describe("email visibility", () => {
  it("hides a restricted address from members and shows delivery_email to administrators only", async () => {
    // Prepare: a user who shows their address to administrators only (3).
    const shy = await org.createUser("shy");
    const set = await org.api(shy, "PATCH", "/settings", { email_address_visibility: 3 });
    expect(set.body).toEqual({ result: "success", msg: "" });
    const fakeEmail = `user${shy.id}@127.0.0.1`;

    // Act
    const asMember = await org.api(org.users.member, "GET", `/users/${shy.id}`);
    const asModerator = await org.api(org.users.moderator, "GET", `/users/${shy.id}`);
    const asAdmin = await org.api(org.users.admin, "GET", `/users/${shy.id}`);

    // Assess: members and moderators get the fake address, a real avatar URL and no delivery_email.
    expect(asMember.body.user.email).toBe(fakeEmail);
    expect(asMember.body.user).not.toHaveProperty("delivery_email");
    expect(asMember.body.user.avatar_url).toBe(gravatarUrl(shy.email, 1));
    expect(asModerator.body.user).not.toHaveProperty("delivery_email");
    // Administrators get delivery_email; with it they can compute the gravatar themselves.
    expect(asAdmin.body.user.email).toBe(fakeEmail);
    expect(asAdmin.body.user.delivery_email).toBe(shy.email);
    expect(asAdmin.body.user.avatar_url).toBeNull();
  });

  it("resolves a fake email for everyone, and the real one only for those who may see it", async () => {
    // Prepare
    const hidden = await org.createUser("hidden");
    await org.api(hidden, "PATCH", "/settings", { email_address_visibility: 3 });
    // Act
    const byFake = await org.api(org.users.member, "GET", `/users/user${hidden.id}@127.0.0.1`);
    const realAsMember = await org.api(org.users.member, "GET", `/users/${hidden.email}`);
    const realAsAdmin = await org.api(org.users.admin, "GET", `/users/${hidden.email}`);
    // Assess
    expect(byFake.body.user.user_id).toBe(hidden.id);
    expect(realAsMember.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
    expect(realAsAdmin.body.user.user_id).toBe(hidden.id);
  });

  it("lets the user themselves read their own restricted record with GET /users/me", async () => {
    const me = await org.createUser("private");
    await org.api(me, "PATCH", "/settings", { email_address_visibility: 4 });
    const res = await org.api(me, "GET", "/users/me");
    expect(res.body.email).toBe(`user${me.id}@127.0.0.1`);
    expect(res.body.delivery_email).toBe(me.email);
    // GET /users/me takes no client_gravatar: the contract (OpenAPI get-own-user) types avatar_url as a non-null string.
    expect(res.body.avatar_url).toBe(gravatarUrl(me.email, 1));
  });
});
