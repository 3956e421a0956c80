import { describe, expect, it } from "vitest";
import { batchWrite } from "../../shared/data/batch-write.js";
import type { MessageRecord } from "../../shared/data/records/message.js";
import type { StreamRecord } from "../../shared/data/records/stream.js";
import { messageItem } from "../../shared/data/messages.js";
import { getStream, getStreamIdByName } from "../../shared/data/streams.js";
import { getSubscription, listStreamSubscriberIds, putSubscriptions } from "../../shared/data/subscriptions.js";
import { userById } from "../../shared/data/users.js";
import { userMessageItem } from "../../shared/data/user-messages.js";
import {
  accessStreamById,
  accessStreamByName,
  canReadStreamHistory,
  checkStreamPostPolicy,
} from "../../shared/access/stream.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { createStream, markEvents, streamByName, subscribeTo, subscriptionOf } from "./streams-helpers.js";
import { noReactions } from "../../shared/data/reactions.js";

const org = useTestOrg();

/** The Stream object a stream record should be served as (spec "Stream" + feature level 283). */
function wire(stream: StreamRecord, extra: Record<string, unknown> = {}) {
  return {
    stream_id: stream.stream_id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: stream.invite_only,
    is_web_public: stream.is_web_public,
    stream_post_policy: stream.stream_post_policy,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers,
    first_message_id: stream.first_message_id,
    is_announcement_only: stream.stream_post_policy === 2,
    can_remove_subscribers_group: stream.can_remove_subscribers_group,
    stream_weekly_traffic: null,
    ...extra,
  };
}

const err = (msg: string, code = "BAD_REQUEST") => ({ result: "error", msg, code });

async function fresh(name: string): Promise<StreamRecord> {
  return (await streamByName(org, name))!;
}

describe("GET /streams", () => {
  it("lists public streams and the caller's private ones, sorted by name", async () => {
    // Prepare
    const { member, member2, owner } = org.users;
    const pub = await createStream(org, member2, "zeta-public", { description: "Z" });
    await createStream(org, member, "alpha-private", { invite_only: true });
    await createStream(org, owner, "hidden-private", { invite_only: true });

    // Act
    const res = await org.api(member, "GET", "/streams");

    // Assess
    expect(res.status).toBe(200);
    const names: string[] = res.body.streams.map((s: any) => s.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(["alpha-private", "zeta-public"]));
    expect(names).not.toContain("hidden-private");
    expect(res.body.streams.find((s: any) => s.name === "zeta-public")).toEqual(wire(pub));
  });

  it("shows guests only the streams they are subscribed to", async () => {
    const { guest, member } = org.users;
    await createStream(org, member, "guest-room", { principals: [member.id, guest.id] });
    const res = await org.api(guest, "GET", "/streams");
    const names = res.body.streams.map((s: any) => s.name);
    expect(names).toContain("guest-room");
    expect(names).not.toContain("zeta-public");
    const own = await org.api(guest, "GET", "/users/me/subscriptions");
    expect(names).toEqual(own.body.subscriptions.map((s: any) => s.name));
  });

  it("serves include_all_active, private streams included, to administrators only", async () => {
    const { admin, member } = org.users;
    const refused = await org.api(member, "GET", "/streams", { include_all_active: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(err("User not authorized for this query"));

    const res = await org.api(admin, "GET", "/streams", { include_all_active: true });
    expect(res.status).toBe(200);
    expect(res.body.streams.map((s: any) => s.name)).toEqual(
      expect.arrayContaining(["alpha-private", "hidden-private", "zeta-public"]),
    );
    // Without it, administrators see what members see.
    const plain = await org.api(admin, "GET", "/streams");
    expect(plain.body.streams.map((s: any) => s.name)).not.toContain("hidden-private");
  });

  it("adds is_default with include_default, and honors include_public=false", async () => {
    const { admin, member } = org.users;
    await createStream(org, admin, "welcome", { is_default_stream: true });
    const res = await org.api(member, "GET", "/streams", { include_default: true });
    const byName = new Map(res.body.streams.map((s: any) => [s.name, s]));
    expect((byName.get("welcome") as any).is_default).toBe(true);
    expect((byName.get("zeta-public") as any).is_default).toBe(false);

    const own = await org.api(member, "GET", "/streams", { include_public: false });
    expect(own.body.streams.every((s: any) => s.is_default === undefined)).toBe(true);
    expect(own.body.streams.map((s: any) => s.name)).toContain("alpha-private");
    expect(own.body.streams.map((s: any) => s.name)).not.toContain("zeta-public");

    const none = await org.api(member, "GET", "/streams", { include_public: false, include_subscribed: false });
    expect(none.body).toEqual({ result: "success", msg: "", streams: [] });
  });

  it("lets a bot list its owner's streams with include_owner_subscribed", async () => {
    const { bot } = org.users;
    const res = await org.api(bot, "GET", "/streams", {
      include_public: false,
      include_subscribed: false,
      include_owner_subscribed: true,
    });
    expect(res.body.streams.map((s: any) => s.name)).toContain("alpha-private");
  });
});

describe("GET /streams/{stream_id}", () => {
  it("returns one stream", async () => {
    const stream = await fresh("zeta-public");
    const res = await org.api(org.users.member, "GET", `/streams/${stream.stream_id}`);
    expect(res.body).toEqual({ result: "success", msg: "", stream: wire(stream) });
  });

  it("hides private streams from non-subscribers but not from administrators", async () => {
    const hidden = await fresh("hidden-private");
    const refused = await org.api(org.users.member, "GET", `/streams/${hidden.stream_id}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(err("Invalid channel ID"));
    const unknown = await org.api(org.users.member, "GET", "/streams/999999");
    expect(unknown.body).toEqual(refused.body);
    const admin = await org.api(org.users.admin, "GET", `/streams/${hidden.stream_id}`);
    expect(admin.body.stream).toEqual(wire(hidden));
    const bad = await org.api(org.users.member, "GET", "/streams/abc");
    expect(bad.body).toEqual(err("Invalid stream_id"));
  });
});

describe("GET /get_stream_id", () => {
  it("resolves a name case-insensitively", async () => {
    const stream = await fresh("zeta-public");
    const res = await org.api(org.users.member, "GET", "/get_stream_id", { stream: "ZETA-public" });
    expect(res.body).toEqual({ result: "success", msg: "", stream_id: stream.stream_id });
  });

  it("answers the same error for unknown and invisible names", async () => {
    for (const name of ["nowhere", "hidden-private"]) {
      const res = await org.api(org.users.member, "GET", "/get_stream_id", { stream: name });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err(`Invalid channel name '${name}'`));
    }
    const missing = await org.api(org.users.member, "GET", "/get_stream_id");
    expect(missing.body).toEqual({ ...err("Missing 'stream' argument", "REQUEST_VARIABLE_MISSING"), var_name: "stream" });
  });
});

describe("GET /streams/{stream_id}/members", () => {
  it("lists subscribers; administrators may list private streams; others get Invalid channel ID", async () => {
    const { owner, admin, member, guest } = org.users;
    const hidden = await fresh("hidden-private");
    const pub = await fresh("zeta-public");

    const adminRes = await org.api(admin, "GET", `/streams/${hidden.stream_id}/members`);
    expect(adminRes.body).toEqual({ result: "success", msg: "", subscribers: [owner.id] });
    const memberRes = await org.api(member, "GET", `/streams/${hidden.stream_id}/members`);
    expect(memberRes.body).toEqual(err("Invalid channel ID"));
    const pubRes = await org.api(member, "GET", `/streams/${pub.stream_id}/members`);
    expect(pubRes.body.subscribers).toEqual([org.users.member2.id]);
    const guestRes = await org.api(guest, "GET", `/streams/${pub.stream_id}/members`);
    expect(guestRes.body).toEqual(err("Invalid channel ID"));
  });
});

describe("PATCH /streams/{stream_id}", () => {
  it("changes the description and tells everyone who can see the stream", async () => {
    // Prepare
    const { admin, member, guest } = org.users;
    const stream = await createStream(org, member, "patch-desc");
    const events = await markEvents(org, [member, guest]);

    // Act
    const res = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { description: "New\ntext & more" });

    // Assess
    expect(res.body).toEqual({ result: "success", msg: "" });
    const after = await fresh("patch-desc");
    expect(after.description).toBe("New text & more");
    expect(after.rendered_description).toBe("<p>New text &amp; more</p>");
    expect(await events.since(member)).toEqual([
      {
        type: "stream",
        op: "update",
        property: "description",
        value: "New text & more",
        rendered_description: after.rendered_description,
        stream_id: stream.stream_id,
        name: "patch-desc",
      },
    ]);
    expect(await events.since(guest)).toEqual([]);
  });

  it("renames a stream, moving its unique name in the same write", async () => {
    const { admin, member } = org.users;
    const stream = await fresh("patch-desc");
    const events = await markEvents(org, [member]);

    const res = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { new_name: "  patch-renamed " });

    expect(res.status).toBe(200);
    expect((await getStream(org.stack.deps, org.realm.id, stream.stream_id))!.name).toBe("patch-renamed");
    expect(await getStreamIdByName(org.stack.deps, org.realm.id, "patch-renamed")).toBe(stream.stream_id);
    expect(await getStreamIdByName(org.stack.deps, org.realm.id, "patch-desc")).toBeUndefined();
    expect(await events.since(member)).toEqual([
      { type: "stream", op: "update", property: "name", value: "patch-renamed", stream_id: stream.stream_id, name: "patch-desc" },
    ]);
    // The old name is free again.
    const reuse = await createStream(org, member, "patch-desc");
    expect(reuse.stream_id).not.toBe(stream.stream_id);
    // Changing only the letter case keeps the claim.
    const recase = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { new_name: "Patch-Renamed" });
    expect(recase.status).toBe(200);
    expect(await getStreamIdByName(org.stack.deps, org.realm.id, "patch-renamed")).toBe(stream.stream_id);
  });

  it("messages sent before a rename show the stream's current name", async () => {
    const { admin, member } = org.users;
    const stream = await createStream(org, member, "before-rename", {});
    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: "before-rename", topic: "t", content: "old times" });
    expect((await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { new_name: "after-rename" })).status).toBe(200);

    const one = await org.api(member, "GET", `/messages/${sent.body.id}`, {});
    expect(one.body.message.display_recipient).toBe("after-rename");
    for (const narrow of [[], [{ operator: "channel", operand: stream.stream_id }], [{ operator: "sender", operand: member.id }]]) {
      const page = await org.api(member, "GET", "/messages", { anchor: sent.body.id, num_before: 0, num_after: 0, narrow });
      expect(page.body.messages.map((m: { display_recipient: string }) => m.display_recipient)).toEqual(["after-rename"]);
    }
  });

  it("refuses taken and unchanged names without writing", async () => {
    const { admin } = org.users;
    const stream = await fresh("patch-renamed");
    const taken = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { new_name: "PATCH-DESC", description: "x" });
    expect(taken.body).toEqual(err("Channel name already in use."));
    const same = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { new_name: "Patch-Renamed" });
    expect(same.body).toEqual(err("Channel already has that name."));
    const empty = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { new_name: " " });
    expect(empty.body).toEqual(err("Channel name can't be empty."));
    expect(await fresh("patch-renamed")).toEqual(stream);
  });

  it("refuses members, hides private streams, and reports unknown streams as the spec says", async () => {
    const { member, member2, admin } = org.users;
    const pub = await fresh("patch-renamed");
    const hidden = await fresh("hidden-private");
    const cases: [TestUser, number, string][] = [
      [member, pub.stream_id, "Must be an organization administrator"],
      [member2, hidden.stream_id, "Invalid stream id"],
      [admin, 999999, "Invalid stream id"],
    ];
    for (const [user, id, msg] of cases) {
      const res = await org.api(user, "PATCH", `/streams/${id}`, { description: "hacked" });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    expect((await fresh("patch-renamed")).description).toBe(pub.description);
    expect((await fresh("hidden-private")).description).toBe(hidden.description);
  });

  it("lets stream administrators (role 20) change their stream", async () => {
    const { member2 } = org.users;
    const stream = await createStream(org, member2, "stream-admin-room");
    const sub = (await getSubscription(org.stack.deps, member2.id, stream.stream_id))!;
    await putSubscriptions(org.stack.deps, [{ ...sub, role: 20 }]);
    const res = await org.api(member2, "PATCH", `/streams/${stream.stream_id}`, { description: "mine" });
    expect(res.status).toBe(200);
    expect((await fresh("stream-admin-room")).description).toBe("mine");
  });

  it("makes a public stream private: subscribers and administrators are told, others lose it", async () => {
    const { admin, member, member2, moderator } = org.users;
    const stream = await createStream(org, member, "going-private");
    const events = await markEvents(org, [member, member2, admin, moderator]);

    const res = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { is_private: true });

    expect(res.status).toBe(200);
    expect(await fresh("going-private")).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    const update = {
      type: "stream",
      op: "update",
      property: "invite_only",
      value: true,
      history_public_to_subscribers: false,
      is_web_public: false,
      stream_id: stream.stream_id,
      name: "going-private",
    };
    expect(await events.since(member)).toEqual([update]);
    expect(await events.since(admin)).toEqual([update]);
    const lost = await events.since(member2);
    expect(lost.map((e) => `${e.type}:${e.op}`)).toEqual(["stream:delete"]);
    expect(lost[0]!.streams[0].stream_id).toBe(stream.stream_id);
    expect((await events.since(moderator)).map((e) => `${e.type}:${e.op}`)).toEqual(["stream:delete"]);
    expect((await org.api(member2, "GET", `/streams/${stream.stream_id}`)).body).toEqual(err("Invalid channel ID"));
  });

  it("makes a private stream public: newcomers get the stream and its subscribers", async () => {
    const { member, member2 } = org.users;
    const stream = await fresh("going-private");
    const events = await markEvents(org, [member, member2]);

    // The subscribed creator is not an administrator: members cannot change privacy of others' streams.
    const refused = await org.api(member, "PATCH", `/streams/${stream.stream_id}`, { is_private: false });
    expect(refused.body).toEqual(err("Must be an organization administrator"));

    const res = await org.api(org.users.owner, "PATCH", `/streams/${stream.stream_id}`, { is_private: false });
    // Even owners must be subscribed to change a private stream's privacy.
    expect(res.body).toEqual(err("Invalid stream id"));
    const sub = (await getSubscription(org.stack.deps, member.id, stream.stream_id))!;
    await putSubscriptions(org.stack.deps, [{ ...sub, role: 20 }]);
    const ok = await org.api(member, "PATCH", `/streams/${stream.stream_id}`, { is_private: false });
    expect(ok.status).toBe(200);
    expect(await fresh("going-private")).toMatchObject({ invite_only: false, history_public_to_subscribers: true });
    const got = await events.since(member2);
    expect(got.map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:peer_add"]);
    expect(got[1]).toEqual({ type: "subscription", op: "peer_add", stream_ids: [stream.stream_id], user_ids: [member.id] });
  });

  it("refuses incoherent privacy settings", async () => {
    const { admin } = org.users;
    const stream = await fresh("patch-renamed");
    const bad = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { history_public_to_subscribers: false });
    expect(bad.body).toEqual(err("Invalid parameters"));
    const web = await org.api(org.users.owner, "PATCH", `/streams/${stream.stream_id}`, { is_web_public: true });
    expect(web.body).toEqual(err("Web-public channels are not enabled."));
    const defaultPrivate = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, {
      is_private: true,
      is_default_stream: true,
    });
    expect(defaultPrivate.body).toEqual(err("A default channel cannot be private."));
    expect(await fresh("patch-renamed")).toEqual(stream);
  });

  it("changes the posting policy, also through the deprecated is_announcement_only", async () => {
    const { admin, member } = org.users;
    const stream = await fresh("patch-renamed");
    const events = await markEvents(org, [member]);
    const res = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { stream_post_policy: 2 });
    expect(res.status).toBe(200);
    expect((await fresh("patch-renamed")).stream_post_policy).toBe(2);
    const u = (property: string, value: unknown) => ({
      type: "stream",
      op: "update",
      property,
      value,
      stream_id: stream.stream_id,
      name: stream.name,
    });
    expect(await events.since(member)).toEqual([u("stream_post_policy", 2), u("is_announcement_only", true)]);

    await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { is_announcement_only: false });
    expect((await fresh("patch-renamed")).stream_post_policy).toBe(1);
    const bad = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { stream_post_policy: 9 });
    expect(bad.body).toEqual(err("Invalid stream_post_policy"));
  });

  it("lets only owners change message retention, accepting realm_default and unlimited", async () => {
    const { admin, owner } = org.users;
    const stream = await fresh("patch-renamed");
    const refused = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { message_retention_days: "unlimited" });
    expect(refused.body).toEqual(err("Must be an organization owner"));
    expect((await org.api(owner, "PATCH", `/streams/${stream.stream_id}`, { message_retention_days: "unlimited" })).status).toBe(200);
    expect((await fresh("patch-renamed")).message_retention_days).toBe(-1);
    expect((await org.api(owner, "PATCH", `/streams/${stream.stream_id}`, { message_retention_days: 7 })).status).toBe(200);
    expect((await fresh("patch-renamed")).message_retention_days).toBe(7);
    expect((await org.api(owner, "PATCH", `/streams/${stream.stream_id}`, { message_retention_days: "realm_default" })).status).toBe(200);
    expect((await fresh("patch-renamed")).message_retention_days).toBeNull();
    const bad = await org.api(owner, "PATCH", `/streams/${stream.stream_id}`, { message_retention_days: 0 });
    expect(bad.body).toEqual(err("Bad value for 'message_retention_days': 0"));
  });

  it("toggles default streams (administrators) and sends default_streams", async () => {
    const { admin, member, moderator } = org.users;
    const stream = await fresh("patch-renamed");
    const refused = await org.api(moderator, "PATCH", `/streams/${stream.stream_id}`, { is_default_stream: true });
    expect(refused.body).toEqual(err("Must be an organization administrator"));
    const events = await markEvents(org, [member]);
    const res = await org.api(admin, "PATCH", `/streams/${stream.stream_id}`, { is_default_stream: true });
    expect(res.status).toBe(200);
    expect((await fresh("patch-renamed")).is_default).toBe(true);
    const got = await events.since(member);
    expect(got).toHaveLength(1);
    expect(got[0]!.type).toBe("default_streams");
    expect(got[0]!.default_streams.map((s: any) => s.name)).toEqual(expect.arrayContaining(["welcome", "Patch-Renamed"]));
  });

  it("refuses too long descriptions", async () => {
    const stream = await fresh("patch-renamed");
    const res = await org.api(org.users.admin, "PATCH", `/streams/${stream.stream_id}`, { description: "d".repeat(1025) });
    expect(res.body).toEqual(err("description is too long (limit: 1024 characters)"));
  });
});

describe("DELETE /streams/{stream_id}", () => {
  it("refuses members and unknown streams", async () => {
    const stream = await createStream(org, org.users.member, "to-archive", {
      principals: [org.users.member.id, org.users.member2.id],
    });
    const member = await org.api(org.users.member, "DELETE", `/streams/${stream.stream_id}`);
    expect(member.body).toEqual(err("Must be an organization administrator"));
    const unknown = await org.api(org.users.admin, "DELETE", "/streams/999999");
    expect(unknown.body).toEqual(err("Invalid channel ID"));
    expect((await fresh("to-archive")).deactivated).toBe(false);
  });

  it("archives: renamed, private, subscriptions deactivated, name released, stream delete sent", async () => {
    // Prepare
    const { admin, member, member2 } = org.users;
    const stream = await fresh("to-archive");
    const events = await markEvents(org, [member, member2, admin]);

    // Act
    const res = await org.api(admin, "DELETE", `/streams/${stream.stream_id}`);

    // Assess
    expect(res.body).toEqual({ result: "success", msg: "" });
    const archived = (await getStream(org.stack.deps, org.realm.id, stream.stream_id))!;
    expect(archived).toMatchObject({ deactivated: true, invite_only: true });
    expect(archived.name).toMatch(/^[0-9a-f]{7}!DEACTIVATED:to-archive$/);
    expect(await getStreamIdByName(org.stack.deps, org.realm.id, "to-archive")).toBeUndefined();
    expect(await listStreamSubscriberIds(org.stack.deps, stream.stream_id)).toEqual([]);
    expect((await subscriptionOf(org, member, stream.stream_id))!.active).toBe(false);
    for (const user of [member, member2, admin]) {
      expect(await events.since(user)).toEqual([{ type: "stream", op: "delete", streams: [wire(stream)] }]);
    }
    expect((await org.api(member, "GET", `/streams/${stream.stream_id}`)).body).toEqual(err("Invalid channel ID"));
    expect((await org.api(member, "GET", "/streams")).body.streams.map((s: any) => s.stream_id)).not.toContain(
      stream.stream_id,
    );
    const again = await org.api(admin, "DELETE", `/streams/${stream.stream_id}`);
    expect(again.body).toEqual(err("Invalid channel ID"));
    // The name can be used again.
    const reborn = await createStream(org, member, "to-archive");
    expect(reborn.stream_id).not.toBe(stream.stream_id);
  });
});

describe("GET /users/me/{stream_id}/topics", () => {
  let nextId = 9_000_000;
  async function putMessages(stream: StreamRecord, topics: string[], receivers: TestUser[] = []): Promise<number[]> {
    const sender = (await userById(org.stack.deps, org.realm.id, org.users.member.id))!;
    const ids: number[] = [];
    const items: Record<string, unknown>[] = [];
    for (const topic of topics) {
      const id = nextId++;
      ids.push(id);
      const message: MessageRecord = {
        id,
        realm_id: org.realm.id,
        recipient_type: "stream",
        recipient_id: stream.recipient_id,
        stream_id: stream.stream_id,
        topic,
        display_recipient: stream.name,
        sender_id: sender.user_id,
        sender_email: sender.delivery_email,
        sender_full_name: sender.full_name,
        sender_realm_str: "",
        sender_avatar_url: "",
        sender_gravatar: true,
        content: "hi",
        rendered_content: "<p>hi</p>",
        rendered_content_version: 1,
        timestamp: 1,
        client: "test",
        is_me_message: false,
        has_link: false,
        has_image: false,
        has_attachment: false,
        mentioned_user_ids: [],
        mentioned_group_ids: [],
        wildcard_mentioned: false,
        ...noReactions(),
        edit_history: [],
        submessages: [],
        topic_links: [],
      };
      items.push(messageItem(message));
      for (const r of receivers) {
        items.push(
          userMessageItem({ user_id: r.id, message_id: id, recipient_id: stream.recipient_id, is_private: false, flags: [] }),
        );
      }
    }
    await batchWrite(org.stack.deps, items);
    return ids;
  }

  it("lists topics newest first, grouping letter case under the newest spelling", async () => {
    const stream = await createStream(org, org.users.member, "topics-public");
    const [, b1, c1, a2] = await putMessages(stream, ["apples", "bananas", "cherries", "Apples"]);
    const res = await org.api(org.users.member2, "GET", `/users/me/${stream.stream_id}/topics`);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      topics: [
        { name: "Apples", max_id: a2 },
        { name: "cherries", max_id: c1 },
        { name: "bananas", max_id: b1 },
      ],
    });
  });

  it("limits protected-history streams to the messages the user received", async () => {
    const { member, member2 } = org.users;
    const stream = await createStream(org, member, "topics-protected", { invite_only: true });
    await putMessages(stream, ["before you came"], [member]);
    await subscribeTo(org, member, ["topics-protected"], { principals: [member2.id] });
    const [later] = await putMessages(stream, ["after you came"], [member, member2]);

    const res = await org.api(member2, "GET", `/users/me/${stream.stream_id}/topics`);
    expect(res.body.topics).toEqual([{ name: "after you came", max_id: later }]);
    const full = await org.api(member, "GET", `/users/me/${stream.stream_id}/topics`);
    expect(full.body.topics.map((t: any) => t.name)).toEqual(["after you came", "before you came"]);
  });

  it("hides private streams, even from administrators", async () => {
    const stream = await fresh("topics-protected");
    const res = await org.api(org.users.admin, "GET", `/users/me/${stream.stream_id}/topics`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("Invalid channel ID"));
  });
});

describe("access functions for sending and reading (shared/queries/streams/access.ts)", () => {
  it("accessStreamById/ByName: public for members, private only for subscribers, never for admins", async () => {
    const deps = org.stack.deps;
    const user = async (u: TestUser) => (await userById(deps, org.realm.id, u.id))!;
    const hidden = await fresh("hidden-private");
    const pub = await fresh("zeta-public");

    const owner = await accessStreamById(deps, await user(org.users.owner), org.realm, hidden.stream_id);
    expect(owner.stream.stream_id).toBe(hidden.stream_id);
    expect(owner.sub?.active).toBe(true);

    await expect(accessStreamById(deps, await user(org.users.admin), org.realm, hidden.stream_id)).rejects.toMatchObject({
      code: "STREAM_DOES_NOT_EXIST",
      message: `Channel with ID '${hidden.stream_id}' does not exist`,
    });
    await expect(accessStreamByName(deps, await user(org.users.admin), org.realm, "HIDDEN-private")).rejects.toMatchObject({
      code: "STREAM_DOES_NOT_EXIST",
      message: "Channel 'HIDDEN-private' does not exist",
    });
    const member = await accessStreamByName(deps, await user(org.users.member), org.realm, "Zeta-Public");
    expect(member).toEqual({ stream: pub, sub: undefined });
    await expect(accessStreamById(deps, await user(org.users.guest), org.realm, pub.stream_id)).rejects.toMatchObject({
      code: "STREAM_DOES_NOT_EXIST",
    });
    expect(await listStreamSubscriberIds(deps, pub.stream_id)).toEqual([org.users.member2.id]);
  });

  it("checkStreamPostPolicy and canReadStreamHistory follow Zulip's rules", async () => {
    const deps = org.stack.deps;
    const user = async (u: TestUser) => (await userById(deps, org.realm.id, u.id))!;
    const member = await user(org.users.member);
    const admin = await user(org.users.admin);
    const stream = await fresh("patch-renamed");
    expect(() => checkStreamPostPolicy(member, { ...stream, stream_post_policy: 2 })).toThrow(
      "Only organization administrators can send to this channel.",
    );
    expect(() => checkStreamPostPolicy(admin, { ...stream, stream_post_policy: 2 })).not.toThrow();
    expect(canReadStreamHistory(member, stream, undefined)).toBe(true);
    expect(canReadStreamHistory(member, { ...stream, invite_only: true, history_public_to_subscribers: false }, undefined)).toBe(false);
  });
});
