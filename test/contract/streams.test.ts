/**
 * Contract tests of the finished `streams` area (streams and
 * subscriptions): every endpoint, success and main error cases, each
 * response validated against Zulip's OpenAPI description.
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { eventsOf } from "../e2e/streams-helpers.js";
import { describeContract, expectConforms as conforms, expectDocumentedFields, expectMatchesContract } from "../support/openapi.js";

describeContract("contract: streams and subscriptions", () => {
  const org = useTestOrg();
  const ids: Record<string, number> = {};

  it("POST /users/me/subscriptions: create, already subscribed, others, unauthorized, bad input", async () => {
    const { member, admin, member2, guest } = org.users;
    const created = conforms(
      "POST",
      "/users/me/subscriptions",
      await org.api(member, "POST", "/users/me/subscriptions", {
        subscriptions: [{ name: "contract-public", description: "A *public* stream" }, { name: "contract-two" }],
      }),
      200,
    );
    // Keyed by API email at feature level 283 (user IDs came later).
    expect(created.body.subscribed).toEqual({ [member.email]: ["contract-public", "contract-two"] });
    conforms(
      "POST",
      "/users/me/subscriptions",
      await org.api(admin, "POST", "/users/me/subscriptions", {
        subscriptions: [{ name: "contract-private" }],
        invite_only: true,
        principals: [admin.id, member2.id],
      }),
      200,
    );
    const again = conforms(
      "POST",
      "/users/me/subscriptions",
      await org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "contract-public" }] }),
      200,
    );
    expect(again.body.already_subscribed).toEqual({ [member.email]: ["contract-public"] });
    // A guest may not create streams; a member may not join a private stream.
    const guestCreate = await org.api(guest, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "guest-made" }] });
    conforms("POST", "/users/me/subscriptions", guestCreate, guestCreate.status);
    expect(guestCreate.status).toBe(400);
    const notAllowed = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "contract-private" }],
      authorization_errors_fatal: false,
    });
    conforms("POST", "/users/me/subscriptions", notAllowed, 200);
    expect(notAllowed.body.unauthorized).toEqual(["contract-private"]);
    conforms(
      "POST",
      "/users/me/subscriptions",
      await org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "contract-private" }] }),
      400,
    );
    conforms("POST", "/users/me/subscriptions", await org.api(member, "POST", "/users/me/subscriptions", {}), 400);
    conforms(
      "POST",
      "/users/me/subscriptions",
      await org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "bad-color", color: "red" }] }),
      400,
    );
  });

  it("GET /get_stream_id: found, unknown", async () => {
    for (const name of ["contract-public", "contract-two", "contract-private"]) {
      const res = conforms("GET", "/get_stream_id", await org.api(org.users.admin, "GET", "/get_stream_id", { stream: name }), 200);
      ids[name] = res.body.stream_id;
    }
    conforms("GET", "/get_stream_id", await org.api(org.users.member, "GET", "/get_stream_id", { stream: "no-such-stream" }), 400);
  });

  it("GET /users/me/subscriptions: plain and with subscribers, documented fields", async () => {
    const plain = conforms("GET", "/users/me/subscriptions", await org.api(org.users.member, "GET", "/users/me/subscriptions"), 200);
    const withSubs = conforms(
      "GET",
      "/users/me/subscriptions",
      await org.api(org.users.admin, "GET", "/users/me/subscriptions", { include_subscribers: true }),
      200,
    );
    for (const s of [...plain.body.subscriptions, ...withSubs.body.subscriptions]) expectDocumentedFields(s, "Subscriptions");
    for (const s of withSubs.body.subscriptions) expect(Array.isArray(s.subscribers)).toBe(true);
  });

  it("POST /users/me/subscriptions/properties: success, not subscribed, bad property", async () => {
    const { member } = org.users;
    conforms(
      "POST",
      "/users/me/subscriptions/properties",
      await org.api(member, "POST", "/users/me/subscriptions/properties", {
        subscription_data: [
          { stream_id: ids["contract-public"], property: "color", value: "#aabbcc" },
          { stream_id: ids["contract-public"], property: "is_muted", value: true },
          { stream_id: ids["contract-public"], property: "pin_to_top", value: true },
        ],
      }),
      200,
    );
    conforms(
      "POST",
      "/users/me/subscriptions/properties",
      await org.api(member, "POST", "/users/me/subscriptions/properties", {
        subscription_data: [{ stream_id: ids["contract-private"], property: "color", value: "#aabbcc" }],
      }),
      400,
    );
    conforms(
      "POST",
      "/users/me/subscriptions/properties",
      await org.api(member, "POST", "/users/me/subscriptions/properties", {
        subscription_data: [{ stream_id: ids["contract-public"], property: "nonsense", value: true }],
      }),
      400,
    );
  });

  it("GET /streams: default, include_default and all active (admin), refused for a member", async () => {
    const { member, admin, bot } = org.users;
    const all = [
      conforms("GET", "/streams", await org.api(member, "GET", "/streams"), 200),
      conforms("GET", "/streams", await org.api(member, "GET", "/streams", { include_default: true }), 200),
      conforms("GET", "/streams", await org.api(admin, "GET", "/streams", { include_all_active: true }), 200),
      conforms("GET", "/streams", await org.api(bot, "GET", "/streams", { include_owner_subscribed: true }), 200),
    ];
    for (const res of all) for (const s of res.body.streams) expectDocumentedFields(s, "BasicChannel");
    const refused = conforms("GET", "/streams", await org.api(member, "GET", "/streams", { include_all_active: true }), 400);
    expect(refused.body.msg).toBe("User not authorized for this query");
  });

  it("GET /streams/{stream_id}: found, unknown, private without access", async () => {
    const res = conforms("GET", "/streams/{stream_id}", await org.api(org.users.member, "GET", `/streams/${ids["contract-public"]}`), 200);
    expectDocumentedFields(res.body.stream, "BasicChannel");
    conforms("GET", "/streams/{stream_id}", await org.api(org.users.member, "GET", "/streams/999999"), 400);
    conforms("GET", "/streams/{stream_id}", await org.api(org.users.member, "GET", `/streams/${ids["contract-private"]}`), 400);
  });

  it("GET /streams/{stream_id}/members and GET /users/{user_id}/subscriptions/{stream_id}", async () => {
    const { member, admin } = org.users;
    conforms("GET", "/streams/{stream_id}/members", await org.api(member, "GET", `/streams/${ids["contract-public"]}/members`), 200);
    conforms("GET", "/streams/{stream_id}/members", await org.api(member, "GET", "/streams/999999/members"), 400);
    conforms("GET", "/streams/{stream_id}/members", await org.api(member, "GET", `/streams/${ids["contract-private"]}/members`), 400);
    const yes = conforms(
      "GET",
      "/users/{user_id}/subscriptions/{stream_id}",
      await org.api(admin, "GET", `/users/${member.id}/subscriptions/${ids["contract-public"]}`),
      200,
    );
    expect(yes.body.is_subscribed).toBe(true);
    conforms(
      "GET",
      "/users/{user_id}/subscriptions/{stream_id}",
      await org.api(admin, "GET", `/users/999999/subscriptions/${ids["contract-public"]}`),
      400,
    );
    conforms(
      "GET",
      "/users/{user_id}/subscriptions/{stream_id}",
      await org.api(admin, "GET", `/users/${member.id}/subscriptions/999999`),
      400,
    );
  });

  it("GET /users/me/{stream_id}/topics: empty stream, unknown stream", async () => {
    conforms("GET", "/users/me/{stream_id}/topics", await org.api(org.users.member, "GET", `/users/me/${ids["contract-public"]}/topics`), 200);
    conforms("GET", "/users/me/{stream_id}/topics", await org.api(org.users.member, "GET", "/users/me/999999/topics"), 400);
  });

  it("PATCH /streams/{stream_id}: success, unknown stream, not permitted, bad value", async () => {
    const { admin, member } = org.users;
    conforms(
      "PATCH",
      "/streams/{stream_id}",
      await org.api(admin, "PATCH", `/streams/${ids["contract-two"]}`, { description: "Changed", stream_post_policy: 2 }),
      200,
    );
    conforms(
      "PATCH",
      "/streams/{stream_id}",
      await org.api(admin, "PATCH", `/streams/${ids["contract-two"]}`, { is_default_stream: true, description: "Default now" }),
      200,
    );
    const unknown = conforms("PATCH", "/streams/{stream_id}", await org.api(admin, "PATCH", "/streams/999999", { description: "x" }), 400);
    expect(unknown.body.msg).toBe("Invalid stream id");
    conforms("PATCH", "/streams/{stream_id}", await org.api(member, "PATCH", `/streams/${ids["contract-two"]}`, { new_name: "x" }), 400);
    conforms(
      "PATCH",
      "/streams/{stream_id}",
      await org.api(admin, "PATCH", `/streams/${ids["contract-two"]}`, { stream_post_policy: 9 }),
      400,
    );
  });

  it("DELETE /users/me/subscriptions: success, not subscribed, unknown stream, others without permission", async () => {
    const { member, member2 } = org.users;
    const res = conforms(
      "DELETE",
      "/users/me/subscriptions",
      await org.api(member, "DELETE", "/users/me/subscriptions", { subscriptions: ["contract-two"] }),
      200,
    );
    expect(res.body.removed).toEqual(["contract-two"]);
    const notSub = conforms(
      "DELETE",
      "/users/me/subscriptions",
      await org.api(member, "DELETE", "/users/me/subscriptions", { subscriptions: ["contract-two"] }),
      200,
    );
    expect(notSub.body.not_removed).toEqual(["contract-two"]);
    conforms(
      "DELETE",
      "/users/me/subscriptions",
      await org.api(member, "DELETE", "/users/me/subscriptions", { subscriptions: ["no-such-stream"] }),
      400,
    );
    conforms(
      "DELETE",
      "/users/me/subscriptions",
      await org.api(member, "DELETE", "/users/me/subscriptions", { subscriptions: ["contract-public"], principals: [member2.id] }),
      400,
    );
  });

  it("DELETE /streams/{stream_id}: success, unknown, not permitted", async () => {
    conforms("DELETE", "/streams/{stream_id}", await org.api(org.users.member, "DELETE", `/streams/${ids["contract-public"]}`), 400);
    conforms("DELETE", "/streams/{stream_id}", await org.api(org.users.admin, "DELETE", `/streams/${ids["contract-two"]}`), 200);
    conforms("DELETE", "/streams/{stream_id}", await org.api(org.users.admin, "DELETE", "/streams/999999"), 400);
  });

  it("the events these calls sent match the contract's event schemas (GET /events)", async () => {
    const users = Object.values(org.users);
    const events = (await Promise.all(users.map((u) => eventsOf(org, u.id)))).flat();
    const kinds = [...new Set(events.map((e) => `${e.type} ${e.op ?? ""}`.trim()))];
    expect(kinds).toEqual(expect.arrayContaining(["subscription add", "subscription remove", "subscription peer_add", "stream create", "stream update", "stream delete", "default_streams"]));
    // Validated as the body of GET /events would carry them.
    expectMatchesContract("GET", "/events", 200, {
      result: "success",
      msg: "",
      queue_id: "contract",
      events: events.map((e, i) => ({ id: i, ...e })),
    });
  });
});
