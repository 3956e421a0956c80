/**
 * Contract tests of the finished `auth` and `users` areas: every endpoint,
 * success and main error cases, each response validated against Zulip's
 * OpenAPI description (`test/support/openapi.ts`).
 */
import { expect, it } from "vitest";
import { Role } from "../../shared/domain/roles.js";
import { useTestOrg } from "../support/local-stack.js";
import { eventsOf } from "../e2e/streams-helpers.js";
import { describeContract, expectConforms as conforms, expectDocumentedFields, expectMatchesContract } from "../support/openapi.js";

describeContract("contract: server settings and API keys", () => {
  const org = useTestOrg();

  it("GET /server_settings", async () => {
    conforms("GET", "/server_settings", await org.api(null, "GET", "/server_settings"), 200);
  });

  it("POST /fetch_api_key: success, wrong password, missing argument", async () => {
    const ok = conforms(
      "POST",
      "/fetch_api_key",
      await org.api(null, "POST", "/fetch_api_key", { username: "member@test.example", password: "member@test.example-password" }),
      200,
    );
    expect(ok.body.user_id).toBe(org.users.member.id);
    const bad = await org.api(null, "POST", "/fetch_api_key", { username: "member@test.example", password: "nope" });
    conforms("POST", "/fetch_api_key", bad, bad.status);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    const missing = await org.api(null, "POST", "/fetch_api_key", { username: "member@test.example" });
    conforms("POST", "/fetch_api_key", missing, 400);
  });
});

describeContract("contract: users", () => {
  const org = useTestOrg();
  /** Users created by the tests below, whose event logs are checked too. */
  const created: { id: number }[] = [];

  it("GET /users as member and admin, with custom profile fields", async () => {
    for (const who of [org.users.member, org.users.admin, org.users.guest]) {
      const plain = conforms("GET", "/users", await org.api(who, "GET", "/users"), 200);
      const full = conforms(
        "GET",
        "/users",
        await org.api(who, "GET", "/users", { client_gravatar: false, include_custom_profile_fields: true }),
        200,
      );
      // `delivery_email` is not demanded: the contract (feature level 163+) always sends it, our spec only
      // when visibility is limited and the caller is an administrator; the contract does not require it.
      for (const u of [...plain.body.members, ...full.body.members]) expectDocumentedFields(u, "User");
      for (const u of full.body.members) if (!u.is_bot) expect(u).toHaveProperty("profile_data");
    }
  });

  it("GET /users/me (human and bot)", async () => {
    conforms("GET", "/users/me", await org.api(org.users.member, "GET", "/users/me"), 200);
    conforms("GET", "/users/me", await org.api(org.users.bot, "GET", "/users/me"), 200);
    conforms("GET", "/users/me", await org.api(org.users.owner, "GET", "/users/me", { client_gravatar: false }), 200);
    // Authentication failures: no credentials, a wrong API key.
    conforms("GET", "/users/me", await org.api(null, "GET", "/users/me"), 401);
    conforms("GET", "/users/me", await org.api({ ...org.users.member, apiKey: "x".repeat(32) }, "GET", "/users/me"), 401);
  });

  it("GET /users/{user_id}: user, bot, unknown, custom profile fields", async () => {
    const { member, admin, bot } = org.users;
    expectDocumentedFields(conforms("GET", "/users/{user_id}", await org.api(member, "GET", `/users/${member.id}`), 200).body.user, "User");
    const botRes = conforms("GET", "/users/{user_id}", await org.api(admin, "GET", `/users/${bot.id}`), 200);
    expectDocumentedFields(botRes.body.user, "User");
    expect(botRes.body.user.bot_owner_id).toBe(org.users.member.id);
    conforms(
      "GET",
      "/users/{user_id}",
      await org.api(admin, "GET", `/users/${member.id}`, { include_custom_profile_fields: true }),
      200,
    );
    const unknown = await org.api(member, "GET", "/users/999999");
    conforms("GET", "/users/{user_id}", unknown, 400);
    expect(unknown.body.msg).toBe("No such user");
  });

  it("GET /users/{email}: user and unknown", async () => {
    conforms("GET", "/users/{email}", await org.api(org.users.member, "GET", `/users/${org.users.member2.email}`), 200);
    const unknown = await org.api(org.users.member, "GET", "/users/nobody@test.example");
    conforms("GET", "/users/{email}", unknown, 400);
  });

  it("POST /users: created, duplicate email, not an administrator, missing argument", async () => {
    const params = { email: "contract-new@test.example", password: "a-long-password-1", full_name: "Contract New" };
    conforms("POST", "/users", await org.api(org.users.owner, "POST", "/users", params), 200);
    conforms("POST", "/users", await org.api(org.users.owner, "POST", "/users", params), 400);
    const denied = await org.api(org.users.member, "POST", "/users", { ...params, email: "x@test.example" });
    conforms("POST", "/users", denied, denied.status);
    expect(denied.status).toBe(400);
    conforms("POST", "/users", await org.api(org.users.owner, "POST", "/users", { email: "y@test.example" }), 400);
  });

  it("PATCH /users/{user_id}: success, guest made admin, unknown user, not an administrator", async () => {
    const target = await org.createUser("contract-patch");
    conforms("PATCH", "/users/{user_id}", await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { full_name: "Renamed" }), 200);
    conforms(
      "PATCH",
      "/users/{user_id}",
      await org.api(org.users.owner, "PATCH", `/users/${org.users.guest.id}`, { role: Role.ADMINISTRATOR }),
      400,
    );
    conforms("PATCH", "/users/{user_id}", await org.api(org.users.admin, "PATCH", "/users/999999", { full_name: "X" }), 400);
    conforms("PATCH", "/users/{user_id}", await org.api(org.users.member, "PATCH", `/users/${target.id}`, { full_name: "X" }), 400);
  });

  it("DELETE /users/{user_id} and POST /users/{user_id}/reactivate", async () => {
    const target = await org.createUser("contract-deactivate");
    conforms("DELETE", "/users/{user_id}", await org.api(org.users.admin, "DELETE", `/users/${target.id}`), 200);
    // Already deactivated.
    conforms("DELETE", "/users/{user_id}", await org.api(org.users.admin, "DELETE", `/users/${target.id}`), 400);
    // The last owner cannot be deactivated.
    conforms("DELETE", "/users/{user_id}", await org.api(org.users.owner, "DELETE", `/users/${org.users.owner.id}`), 400);
    conforms("DELETE", "/users/{user_id}", await org.api(org.users.member, "DELETE", `/users/${org.users.member2.id}`), 400);
    conforms(
      "POST",
      "/users/{user_id}/reactivate",
      await org.api(org.users.admin, "POST", `/users/${target.id}/reactivate`),
      200,
    );
    // Reactivating an active account succeeds and changes nothing (shared/actions/users/reactivate-user.ts).
    conforms(
      "POST",
      "/users/{user_id}/reactivate",
      await org.api(org.users.admin, "POST", `/users/${target.id}/reactivate`),
      200,
    );
    conforms("POST", "/users/{user_id}/reactivate", await org.api(org.users.admin, "POST", "/users/999999/reactivate"), 400);
  });

  it("PATCH /settings: success, ignored parameters, wrong old password, bot", async () => {
    const u = await org.createUser("contract-settings");
    created.push(u);
    conforms("PATCH", "/settings", await org.api(u, "PATCH", "/settings", { full_name: "Settings Person", enter_sends: true }), 200);
    const ignored = conforms("PATCH", "/settings", await org.api(u, "PATCH", "/settings", { frobnicate: "1" }), 200);
    expect(ignored.body.ignored_parameters_unsupported).toEqual(["frobnicate"]);
    // `email` starts an email change (a link mailed to the new address): success with no fields.
    const email = conforms("PATCH", "/settings", await org.api(u, "PATCH", "/settings", { email: "contract-new@elsewhere.example" }), 200);
    expect(email.body).toEqual({ result: "success", msg: "" });
    conforms("PATCH", "/settings", await org.api(u, "PATCH", "/settings", { email: "not an address" }), 400);
    conforms("PATCH", "/settings", await org.api(u, "PATCH", "/settings", { old_password: "wrong", new_password: "another-password-2" }), 400);
    const bot = await org.api(org.users.bot, "PATCH", "/settings", { full_name: "Bot" });
    conforms("PATCH", "/settings", bot, bot.status);
    expect(bot.status).toBe(400);
  });

  it("the events these calls sent match the contract's event schemas (GET /events)", async () => {
    const users = [...Object.values(org.users), ...created];
    const events = (await Promise.all(users.map((u) => eventsOf(org, u.id)))).flat();
    const kinds = [...new Set(events.map((e) => `${e.type} ${e.op ?? ""}`.trim()))];
    expect(kinds).toEqual(expect.arrayContaining(["realm_user add", "realm_user update", "user_settings update"]));
    // Validated as the body of GET /events would carry them.
    expectMatchesContract("GET", "/events", 200, {
      result: "success",
      msg: "",
      queue_id: "contract",
      events: events.map((e, i) => ({ id: i, ...e })),
    });
  });
});
