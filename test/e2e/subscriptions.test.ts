import { describe, expect, it } from "vitest";
import { listRealmStreams } from "../../shared/data/streams.js";
import { listStreamSubscriberIds } from "../../shared/data/subscriptions.js";
import {
  DEFAULT_STREAM_DESCRIPTION,
  doCreateDefaultStreams,
  subscribeToDefaultStreams,
} from "../../shared/actions/streams/default-streams.js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { userById } from "../../shared/data/users.js";
import { useTestOrg } from "../support/local-stack.js";
import {
  createStream,
  eventsOf,
  markEvents,
  rawSubscriptionItem,
  streamByName,
  subscribeTo,
  subscriptionOf,
} from "./streams-helpers.js";

const org = useTestOrg();

/** Every field of a subscription object (spec "Events" + OpenAPI `Subscriptions` at feature level 283). */
const SUBSCRIPTION_FIELDS = [
  "audible_notifications",
  "can_remove_subscribers_group",
  "color",
  "creator_id",
  "date_created",
  "description",
  "desktop_notifications",
  "email_address",
  "email_notifications",
  "first_message_id",
  "history_public_to_subscribers",
  "in_home_view",
  "invite_only",
  "is_announcement_only",
  "is_muted",
  "is_web_public",
  "message_retention_days",
  "name",
  "pin_to_top",
  "push_notifications",
  "rendered_description",
  "role",
  "stream_id",
  "stream_post_policy",
  "stream_weekly_traffic",
  "wildcard_mentions_notify",
].sort();

describe("POST /users/me/subscriptions: creating and joining streams", () => {
  it("creates a missing public stream, subscribes the caller and tells everyone who can see it", async () => {
    // Prepare
    const { owner, admin, member, member2, guest } = org.users;
    const events = await markEvents(org, [owner, admin, member, member2, guest]);

    // Act
    const res = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "Denmark", description: "A **Scandinavian** <country>" }],
    });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { [member.email]: ["Denmark"] },
      already_subscribed: {},
    });
    const stream = (await streamByName(org, "denmark"))!;
    expect(stream).toMatchObject({
      name: "Denmark",
      description: "A **Scandinavian** <country>",
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      stream_post_policy: 1,
      message_retention_days: null,
      first_message_id: null,
      creator_id: member.id,
      deactivated: false,
      is_default: false,
    });
    expect(stream.rendered_description).toBe("<p>A <strong>Scandinavian</strong> &lt;country&gt;</p>");
    expect(stream.recipient_id).toBeGreaterThan(0);
    const sub = (await subscriptionOf(org, member, stream.stream_id))!;
    expect(sub).toMatchObject({ active: true, is_muted: false, pin_to_top: false, role: 50, desktop_notifications: null });
    expect(sub.color).toMatch(/^#[0-9a-f]{6}$/);
    expect((await rawSubscriptionItem(org, member.id, stream.stream_id))?.gsi1pk).toBe(`STREAMSUBS#${stream.stream_id}`);

    const memberEvents = await events.since(member);
    expect(memberEvents.map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:add"]);
    expect(memberEvents[0]!.streams).toEqual([
      {
        stream_id: stream.stream_id,
        name: "Denmark",
        description: "A **Scandinavian** <country>",
        rendered_description: stream.rendered_description,
        date_created: stream.date_created,
        creator_id: member.id,
        invite_only: false,
        is_web_public: false,
        stream_post_policy: 1,
        message_retention_days: null,
        history_public_to_subscribers: true,
        first_message_id: null,
        is_announcement_only: false,
        can_remove_subscribers_group: stream.can_remove_subscribers_group,
        stream_weekly_traffic: null,
      },
    ]);
    const added = memberEvents[1]!.subscriptions;
    expect(added).toHaveLength(1);
    expect(Object.keys(added[0]).sort()).toEqual([...SUBSCRIPTION_FIELDS, "subscribers"].sort());
    expect(added[0]).toMatchObject({ stream_id: stream.stream_id, color: sub.color, in_home_view: true, subscribers: [member.id] });

    for (const other of [owner, admin, member2]) {
      expect(await events.since(other)).toEqual([
        memberEvents[0],
        { type: "subscription", op: "peer_add", stream_ids: [stream.stream_id], user_ids: [member.id] },
      ]);
    }
    // A guest cannot see a public stream they are not subscribed to.
    expect(await events.since(guest)).toEqual([]);
  });

  it("reports streams the caller is already subscribed to, matching names case-insensitively after stripping", async () => {
    const { member } = org.users;
    const res = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "  denmark " }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: {},
      already_subscribed: { [member.email]: ["Denmark"] },
    });
    expect(await listRealmStreams(org.stack.deps, org.realm.id).then((s) => s.filter((x) => x.name.toLowerCase() === "denmark"))).toHaveLength(1);
  });

  it("creates a private stream with protected history, announced only to administrators", async () => {
    const { owner, admin, moderator, member, member2 } = org.users;
    const events = await markEvents(org, [owner, admin, moderator, member, member2]);

    const res = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "secret-plans" }],
      invite_only: true,
    });

    expect(res.status).toBe(200);
    const stream = (await streamByName(org, "secret-plans"))!;
    expect(stream).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expect((await events.since(owner)).map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:peer_add"]);
    expect((await events.since(admin)).map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:peer_add"]);
    expect(await events.since(moderator)).toEqual([]);
    expect(await events.since(member2)).toEqual([]);
    // The creator is not an administrator: they learn of the stream when subscribed.
    expect((await events.since(member)).map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:add"]);
  });

  it("keeps private streams closed: Unable to access channel, or `unauthorized` when not fatal", async () => {
    const { admin, member2 } = org.users;
    const stream = (await streamByName(org, "secret-plans"))!;

    const fatal = await org.api(member2, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "secret-plans" }],
    });
    expect(fatal.status).toBe(400);
    expect(fatal.body).toEqual({ result: "error", msg: "Unable to access channel (secret-plans).", code: "BAD_REQUEST" });

    // Administrators get no exception for joining private streams.
    const notFatal = await org.api(admin, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "secret-plans" }, { name: "Denmark" }],
      authorization_errors_fatal: false,
    });
    expect(notFatal.status).toBe(200);
    expect(notFatal.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { [admin.email]: ["Denmark"] },
      already_subscribed: {},
      unauthorized: ["secret-plans"],
    });
    expect(await subscriptionOf(org, member2, stream.stream_id)).toBeUndefined();
    expect(await subscriptionOf(org, admin, stream.stream_id)).toBeUndefined();
  });

  it("lets a subscriber add others to a private stream", async () => {
    const { member, member2 } = org.users;
    const stream = (await streamByName(org, "secret-plans"))!;
    const events = await markEvents(org, [member2]);

    const res = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "secret-plans" }],
      principals: [member2.id],
    });

    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({ [member2.email]: ["secret-plans"] });
    expect((await subscriptionOf(org, member2, stream.stream_id))?.active).toBe(true);
    const got = await events.since(member2);
    expect(got.map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:add"]);
    expect(got[1]!.subscriptions[0].subscribers).toEqual([member.id, member2.id]);
  });

  it("subscribes several users to several streams in one request, principals given by ID or email", async () => {
    const { member, member2, moderator, bot } = org.users;

    const res = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "bulk-a" }, { name: "bulk-b" }],
      principals: [member2.email, moderator.email, bot.email],
    });

    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({
      [member2.email]: ["bulk-a", "bulk-b"],
      [moderator.email]: ["bulk-a", "bulk-b"],
      [bot.email]: ["bulk-a", "bulk-b"],
    });
    const a = (await streamByName(org, "bulk-a"))!;
    expect((await listStreamSubscriberIds(org.stack.deps, a.stream_id)).sort((x, y) => x - y)).toEqual(
      [member2.id, moderator.id, bot.id].sort((x, y) => x - y),
    );
    // The caller created the streams without joining them.
    expect(await subscriptionOf(org, member, a.stream_id)).toBeUndefined();
  });

  it("gives a user different colors for different streams, and honors a requested color", async () => {
    const { member2 } = org.users;
    const a = (await streamByName(org, "bulk-a"))!;
    const b = (await streamByName(org, "bulk-b"))!;
    expect((await subscriptionOf(org, member2, a.stream_id))!.color).not.toBe(
      (await subscriptionOf(org, member2, b.stream_id))!.color,
    );
    await org.api(member2, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "colored", color: "#123456" }] });
    const colored = (await streamByName(org, "colored"))!;
    expect((await subscriptionOf(org, member2, colored.stream_id))!.color).toBe("#123456");
  });

  it("creates a stream once when two requests race for the same new name", async () => {
    const { member, member2 } = org.users;
    const [r1, r2] = await Promise.all([
      org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "race-condition" }] }),
      org.api(member2, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "Race-Condition" }] }),
    ]);
    expect(r1.status).toBe(200);
    expect(r2.status).toBe(200);
    const matching = (await listRealmStreams(org.stack.deps, org.realm.id)).filter(
      (s) => s.name.toLowerCase() === "race-condition",
    );
    expect(matching).toHaveLength(1);
    const subscribers = await listStreamSubscriberIds(org.stack.deps, matching[0]!.stream_id);
    expect(subscribers.sort((x, y) => x - y)).toEqual([member.id, member2.id].sort((x, y) => x - y));
  });

  it("lets administrators create default streams, and owners set message retention", async () => {
    const { owner, admin } = org.users;
    const res = await org.api(admin, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "announcements" }],
      is_default_stream: true,
      stream_post_policy: 2,
    });
    expect(res.status).toBe(200);
    expect(await streamByName(org, "announcements")).toMatchObject({ is_default: true, stream_post_policy: 2 });

    const forever = await org.api(owner, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "archive-forever" }],
      message_retention_days: "unlimited",
    });
    expect(forever.status).toBe(200);
    expect((await streamByName(org, "archive-forever"))!.message_retention_days).toBe(-1);

    const days = await org.api(owner, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "short-lived" }],
      message_retention_days: 30,
    });
    expect(days.status).toBe(200);
    expect((await streamByName(org, "short-lived"))!.message_retention_days).toBe(30);
  });
});

describe("POST /users/me/subscriptions: refusals", () => {
  const cases: [string, () => Promise<{ status: number; body: any }>, string][] = [
    [
      "guest",
      () => org.api(org.users.guest, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "guest-made" }] }),
      "Not allowed for guest users",
    ],
    [
      "empty name",
      () => org.api(org.users.member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "   " }] }),
      "Channel name can't be empty.",
    ],
    [
      "long name",
      () => org.api(org.users.member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "x".repeat(61) }] }),
      "Channel name too long (limit: 60 characters).",
    ],
    [
      "control character",
      () => org.api(org.users.member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "ab\u0007c" }] }),
      "Invalid character in channel name, at position 3.",
    ],
    [
      "default stream by a member",
      () =>
        org.api(org.users.member, "POST", "/users/me/subscriptions", {
          subscriptions: [{ name: "member-default" }],
          is_default_stream: true,
        }),
      "Insufficient permission",
    ],
    [
      "private default stream",
      () =>
        org.api(org.users.admin, "POST", "/users/me/subscriptions", {
          subscriptions: [{ name: "private-default" }],
          is_default_stream: true,
          invite_only: true,
        }),
      "A default channel cannot be private.",
    ],
    [
      "retention by an administrator",
      () =>
        org.api(org.users.admin, "POST", "/users/me/subscriptions", {
          subscriptions: [{ name: "admin-retention" }],
          message_retention_days: 10,
        }),
      "Must be an organization owner",
    ],
    [
      "bad retention value",
      () =>
        org.api(org.users.owner, "POST", "/users/me/subscriptions", {
          subscriptions: [{ name: "bad-retention" }],
          message_retention_days: "forever",
        }),
      "Bad value for 'message_retention_days': forever",
    ],
    [
      "web-public without spectator access",
      () =>
        org.api(org.users.owner, "POST", "/users/me/subscriptions", {
          subscriptions: [{ name: "web-public" }],
          is_web_public: true,
        }),
      "Web-public channels are not enabled.",
    ],
    [
      "bad post policy",
      () =>
        org.api(org.users.member, "POST", "/users/me/subscriptions", {
          subscriptions: [{ name: "bad-policy" }],
          stream_post_policy: 5,
        }),
      "Invalid stream_post_policy",
    ],
    [
      "unknown principal",
      () =>
        org.api(org.users.member, "POST", "/users/me/subscriptions", {
          subscriptions: [{ name: "unknown-principal" }],
          principals: [999999],
        }),
      "No such user",
    ],
    [
      "bad color",
      () =>
        org.api(org.users.member, "POST", "/users/me/subscriptions", {
          subscriptions: [{ name: "bad-color", color: "red" }],
        }),
      'subscriptions[0]["color"] is not a valid hex color code',
    ],
    [
      "not JSON",
      () => org.api(org.users.member, "POST", "/users/me/subscriptions", { subscriptions: "[{" }),
      'Argument "subscriptions" is not valid JSON.',
    ],
  ];

  it.each(cases)("refuses: %s (400, nothing created)", async (_label, request, msg) => {
    const before = (await listRealmStreams(org.stack.deps, org.realm.id)).length;
    const res = await request();
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
    expect((await listRealmStreams(org.stack.deps, org.realm.id)).length).toBe(before);
  });

  it("requires `subscriptions`", async () => {
    const res = await org.api(org.users.member, "POST", "/users/me/subscriptions", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing 'subscriptions' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "subscriptions",
    });
  });
});

describe("GET /users/me/subscriptions", () => {
  it("lists the caller's subscriptions sorted by name, with every field", async () => {
    const { member } = org.users;
    const res = await org.api(member, "GET", "/users/me/subscriptions");
    expect(res.status).toBe(200);
    expect(res.body.result).toBe("success");
    const names = res.body.subscriptions.map((s: any) => s.name);
    expect(names).toEqual([...names].sort());
    // The race test's stream is named by whichever request won.
    expect(names.map((n: string) => n.toLowerCase())).toEqual(
      expect.arrayContaining(["denmark", "secret-plans", "race-condition"]),
    );
    const denmark = res.body.subscriptions.find((s: any) => s.name === "Denmark");
    const stream = (await streamByName(org, "Denmark"))!;
    const sub = (await subscriptionOf(org, member, stream.stream_id))!;
    expect(denmark).toEqual({
      stream_id: stream.stream_id,
      name: "Denmark",
      description: stream.description,
      rendered_description: stream.rendered_description,
      date_created: stream.date_created,
      creator_id: member.id,
      invite_only: false,
      is_web_public: false,
      stream_post_policy: 1,
      message_retention_days: null,
      history_public_to_subscribers: true,
      first_message_id: null,
      is_announcement_only: false,
      can_remove_subscribers_group: stream.can_remove_subscribers_group,
      stream_weekly_traffic: null,
      color: sub.color,
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
      role: 50,
      email_address: "",
    });
  });

  it("adds active subscribers with include_subscribers", async () => {
    const { member, member2, admin } = org.users;
    const res = await org.api(member, "GET", "/users/me/subscriptions", { include_subscribers: true });
    expect(res.status).toBe(200);
    const denmark = res.body.subscriptions.find((s: any) => s.name === "Denmark");
    expect(denmark.subscribers).toEqual([admin.id, member.id].sort((a, b) => a - b));
    const secret = res.body.subscriptions.find((s: any) => s.name === "secret-plans");
    expect(secret.subscribers).toEqual([member.id, member2.id].sort((a, b) => a - b));
  });

  it("lists nothing once a user has left every stream", async () => {
    const { guest } = org.users;
    const before = await org.api(guest, "GET", "/users/me/subscriptions");
    const names = before.body.subscriptions.map((s: any) => s.name);
    if (names.length > 0) {
      const left = await org.api(guest, "DELETE", "/users/me/subscriptions", { subscriptions: names });
      expect(left.body.removed).toEqual(names);
    }
    const res = await org.api(guest, "GET", "/users/me/subscriptions");
    expect(res.body).toEqual({ result: "success", msg: "", subscriptions: [] });
  });
});

describe("DELETE /users/me/subscriptions", () => {
  it("unsubscribes the caller: the row stays inactive and leaves the subscriber index", async () => {
    // Prepare
    const { member, member2, admin } = org.users;
    const stream = await createStream(org, member2, "leave-me");
    await subscribeTo(org, member, ["leave-me"]);
    const events = await markEvents(org, [member, member2, admin]);

    // Act
    const res = await org.api(member, "DELETE", "/users/me/subscriptions", { subscriptions: ["leave-me"] });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", removed: ["leave-me"], not_removed: [] });
    const sub = (await subscriptionOf(org, member, stream.stream_id))!;
    expect(sub.active).toBe(false);
    expect((await rawSubscriptionItem(org, member.id, stream.stream_id))?.gsi1pk).toBeUndefined();
    expect(await listStreamSubscriberIds(org.stack.deps, stream.stream_id)).toEqual([member2.id]);
    expect(await events.since(member)).toEqual([
      { type: "subscription", op: "remove", subscriptions: [{ name: "leave-me", stream_id: stream.stream_id }] },
    ]);
    for (const peer of [member2, admin]) {
      expect(await events.since(peer)).toEqual([
        { type: "subscription", op: "peer_remove", stream_ids: [stream.stream_id], user_ids: [member.id] },
      ]);
    }
  });

  it("lists streams the user was not subscribed to in not_removed", async () => {
    const res = await org.api(org.users.member, "DELETE", "/users/me/subscriptions", { subscriptions: ["leave-me"] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", removed: [], not_removed: ["leave-me"] });
  });

  it("reactivates the old row, color included, on resubscribing", async () => {
    const { member } = org.users;
    const stream = (await streamByName(org, "leave-me"))!;
    const oldColor = (await subscriptionOf(org, member, stream.stream_id))!.color;
    const body = await subscribeTo(org, member, ["leave-me"]);
    expect(body.subscribed).toEqual({ [member.email]: ["leave-me"] });
    expect(await subscriptionOf(org, member, stream.stream_id)).toMatchObject({ active: true, color: oldColor });
  });

  it("answers STREAM_DOES_NOT_EXIST for an unknown name, and for a private stream the caller cannot see", async () => {
    const { member2, guest } = org.users;
    await createStream(org, org.users.owner, "owners-only", { invite_only: true });
    for (const name of ["no-such-stream", "owners-only"]) {
      const res = await org.api(member2, "DELETE", "/users/me/subscriptions", { subscriptions: ["Denmark", name] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: "error",
        msg: `Channel '${name}' does not exist`,
        code: "STREAM_DOES_NOT_EXIST",
        stream: name,
      });
    }
    // Guests cannot see public streams they are not subscribed to either.
    const res = await org.api(guest, "DELETE", "/users/me/subscriptions", { subscriptions: ["Denmark"] });
    expect(res.body.code).toBe("STREAM_DOES_NOT_EXIST");
  });

  it("refuses a member unsubscribing someone else, and changes nothing", async () => {
    const { member, member2 } = org.users;
    const stream = (await streamByName(org, "leave-me"))!;
    const res = await org.api(member, "DELETE", "/users/me/subscriptions", {
      subscriptions: ["leave-me"],
      principals: [member2.id],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Insufficient permission", code: "BAD_REQUEST" });
    expect((await subscriptionOf(org, member2, stream.stream_id))?.active).toBe(true);
  });

  it("lets administrators unsubscribe others, and members their own bots", async () => {
    const { admin, member, member2, bot } = org.users;
    const stream = await createStream(org, member, "with-bot", { principals: [member.id, member2.id, bot.id] });

    const byOwner = await org.api(member, "DELETE", "/users/me/subscriptions", {
      subscriptions: ["with-bot"],
      principals: [bot.id],
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.removed).toEqual(["with-bot"]);

    const byAdmin = await org.api(admin, "DELETE", "/users/me/subscriptions", {
      subscriptions: ["with-bot"],
      principals: [member2.email],
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual({ result: "success", msg: "", removed: ["with-bot"], not_removed: [] });
    expect(await listStreamSubscriberIds(org.stack.deps, stream.stream_id)).toEqual([member.id]);
  });

  it("tells a user leaving a private stream that it is gone for them", async () => {
    const { member2 } = org.users;
    const stream = (await streamByName(org, "secret-plans"))!;
    const events = await markEvents(org, [member2]);
    const res = await org.api(member2, "DELETE", "/users/me/subscriptions", { subscriptions: ["secret-plans"] });
    expect(res.status).toBe(200);
    const got = await events.since(member2);
    expect(got.map((e) => `${e.type}:${e.op}`)).toEqual(["subscription:remove", "stream:delete"]);
    expect(got[1]!.streams[0]).toMatchObject({ stream_id: stream.stream_id, name: "secret-plans", invite_only: true });
  });
});

describe("POST /users/me/subscriptions/properties", () => {
  it("changes personal settings and sends subscription update events (two for muting)", async () => {
    const { member } = org.users;
    const stream = (await streamByName(org, "Denmark"))!;
    const events = await markEvents(org, [member]);

    const res = await org.api(member, "POST", "/users/me/subscriptions/properties", {
      subscription_data: [
        { stream_id: stream.stream_id, property: "color", value: "#f00f00" },
        { stream_id: stream.stream_id, property: "pin_to_top", value: true },
        { stream_id: stream.stream_id, property: "in_home_view", value: false },
        { stream_id: stream.stream_id, property: "desktop_notifications", value: true },
      ],
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await subscriptionOf(org, member, stream.stream_id)).toMatchObject({
      color: "#f00f00",
      pin_to_top: true,
      is_muted: true,
      desktop_notifications: true,
    });
    const u = (property: string, value: unknown) => ({ type: "subscription", op: "update", property, value, stream_id: stream.stream_id });
    expect(await events.since(member)).toEqual([
      u("color", "#f00f00"),
      u("pin_to_top", true),
      u("in_home_view", false),
      u("is_muted", true),
      u("desktop_notifications", true),
    ]);
  });

  it("accepts PATCH as well", async () => {
    const { member } = org.users;
    const stream = (await streamByName(org, "Denmark"))!;
    const res = await org.api(member, "PATCH", "/users/me/subscriptions/properties", {
      subscription_data: [{ stream_id: stream.stream_id, property: "is_muted", value: false }],
    });
    expect(res.status).toBe(200);
    expect((await subscriptionOf(org, member, stream.stream_id))!.is_muted).toBe(false);
  });

  it("refuses bad entries without applying any change", async () => {
    const { member, member2 } = org.users;
    const denmark = (await streamByName(org, "Denmark"))!;
    const owners = (await streamByName(org, "owners-only"))!;
    const bulkA = (await streamByName(org, "bulk-a"))!;
    const good = { stream_id: denmark.stream_id, property: "pin_to_top", value: false };
    const cases: [unknown, string][] = [
      [{ stream_id: denmark.stream_id, property: "volume", value: true }, "Unknown subscription property: volume"],
      [{ stream_id: 999999, property: "color", value: "#000000" }, "Invalid channel ID"],
      [{ stream_id: owners.stream_id, property: "color", value: "#000000" }, "Invalid channel ID"],
      [{ stream_id: bulkA.stream_id, property: "color", value: "#000000" }, `Not subscribed to channel ID ${bulkA.stream_id}`],
      [{ stream_id: denmark.stream_id, property: "color", value: "blue" }, "color is not a valid hex color code"],
      [{ stream_id: denmark.stream_id, property: "is_muted", value: "yes" }, "is_muted is not a boolean"],
    ];
    for (const [bad, msg] of cases) {
      const res = await org.api(member, "POST", "/users/me/subscriptions/properties", { subscription_data: [good, bad] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
      expect((await subscriptionOf(org, member, denmark.stream_id))!.pin_to_top).toBe(true);
    }
    void member2;
  });
});

describe("GET /users/{user_id}/subscriptions/{stream_id}", () => {
  it("tells whether a user is subscribed", async () => {
    const { member, member2, admin } = org.users;
    const denmark = (await streamByName(org, "Denmark"))!;
    const yes = await org.api(member2, "GET", `/users/${member.id}/subscriptions/${denmark.stream_id}`);
    expect(yes.body).toEqual({ result: "success", msg: "", is_subscribed: true });
    const no = await org.api(member2, "GET", `/users/${member2.id}/subscriptions/${denmark.stream_id}`);
    expect(no.body).toEqual({ result: "success", msg: "", is_subscribed: false });
    // Administrators may ask about private streams they are not on.
    const owners = (await streamByName(org, "owners-only"))!;
    const adminAsks = await org.api(admin, "GET", `/users/${org.users.owner.id}/subscriptions/${owners.stream_id}`);
    expect(adminAsks.body).toEqual({ result: "success", msg: "", is_subscribed: true });
  });

  it("refuses unknown users and streams the caller cannot see", async () => {
    const { member, member2 } = org.users;
    const owners = (await streamByName(org, "owners-only"))!;
    const hidden = await org.api(member2, "GET", `/users/${member.id}/subscriptions/${owners.stream_id}`);
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual({ result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });
    const unknownUser = await org.api(member2, "GET", `/users/999999/subscriptions/${owners.stream_id}`);
    expect(unknownUser.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
    const badPath = await org.api(member2, "GET", `/users/${member.id}/subscriptions/abc`);
    expect(badPath.body).toEqual({ result: "error", msg: "Invalid stream_id", code: "BAD_REQUEST" });
  });
});

describe("default streams (realm and user creation)", () => {
  it("doCreateDefaultStreams creates the public default stream `general` with every active user in it", async () => {
    const deps = org.stack.deps;
    const owner = (await userById(deps, org.realm.id, org.users.owner.id))!;

    const general = await doCreateDefaultStreams(deps, org.realm, owner);

    expect(general).toMatchObject({
      name: "general",
      description: DEFAULT_STREAM_DESCRIPTION,
      invite_only: false,
      is_default: true,
      deactivated: false,
    });
    const subscribers = await listStreamSubscriberIds(deps, general.stream_id);
    expect(subscribers).toEqual(expect.arrayContaining(Object.values(org.users).map((u) => u.id)));
  });

  it("subscribeToDefaultStreams puts a new user in every default stream, telling their peers", async () => {
    const deps = org.stack.deps;
    const newbie = await doCreateUser(deps, org.realm, { email: "newbie@test.example", full_name: "New Bie" });
    const general = (await streamByName(org, "general"))!;
    const announcements = (await streamByName(org, "announcements"))!;

    const streams = await subscribeToDefaultStreams(deps, org.realm, newbie);

    expect(streams.map((s) => s.name).sort()).toEqual(["announcements", "general"]);
    for (const stream of [general, announcements]) {
      expect((await subscriptionOf(org, { ...org.users.member, id: newbie.user_id }, stream.stream_id))?.active).toBe(true);
    }
    // The new user has no queue yet: no subscription events of their own.
    expect((await eventsOf(org, newbie.user_id)).filter((e) => e.type === "subscription" && e.op === "add")).toEqual([]);
    const peerAdds = (await eventsOf(org, org.users.member.id)).filter(
      (e) => e.op === "peer_add" && e.user_ids.includes(newbie.user_id),
    );
    expect(peerAdds.flatMap((e) => e.stream_ids)).toEqual(expect.arrayContaining([general.stream_id]));
  });
});
