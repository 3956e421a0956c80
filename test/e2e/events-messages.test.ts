import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { createStreamId, queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const client = (user: TestUser) => queueClient(org, user);

const createStream = (creator: TestUser, name: string, opts: { inviteOnly?: boolean; principals?: number[] } = {}) =>
  createStreamId(org, creator, name, opts);

async function send(user: TestUser, params: Record<string, unknown>): Promise<number> {
  const res = await org.api(user, "POST", "/messages", params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

describe("message events", () => {
  it("delivers a stream message with the recipient's flags, HTML by default off, and local_id only to the sending queue", async () => {
    const { member, member2 } = org.users;
    await createStream(member, "ev-basic", { principals: [member.id, member2.id] });
    const senderQueue = client(member);
    const otherSenderQueue = client(member);
    const recipient = client(member2);
    await senderQueue.register({ event_types: ["message"], apply_markdown: true });
    await otherSenderQueue.register({ event_types: ["message"] });
    await recipient.register({ event_types: ["message"] });

    const id = await send(member, {
      type: "stream",
      to: "ev-basic",
      topic: "t1",
      content: "Hello **world** @**Mia Member**",
      queue_id: senderQueue.queueId,
      local_id: "loc-1",
      read_by_sender: true,
    });

    const [mine] = await senderQueue.poll({ dontBlock: true });
    expect(mine).toMatchObject({
      type: "message",
      id: 0,
      local_message_id: "loc-1",
      local_id: "loc-1",
      flags: ["read"],
      message: { id, content_type: "text/html", subject: "t1", display_recipient: "ev-basic", type: "stream" },
    });
    expect(mine!.message.content).toContain("<strong>world</strong>");

    const [other] = await otherSenderQueue.poll({ dontBlock: true });
    expect(other).not.toHaveProperty("local_message_id");
    expect(other).not.toHaveProperty("local_id");
    expect(other!.message).toMatchObject({ content: "Hello **world** @**Mia Member**", content_type: "text/x-markdown" });

    const [theirs] = await recipient.poll({ dontBlock: true });
    expect(theirs!.flags).toContain("mentioned");
    expect(theirs!.flags).not.toContain("read");
    expect(theirs).not.toHaveProperty("local_id");
    expect(theirs!.message).not.toHaveProperty("raw_content");
  });

  it("leaves avatar_url to client_gravatar clients when they can compute it", async () => {
    const { member, member2 } = org.users;
    await createStream(member, "ev-gravatar", { principals: [member.id, member2.id] });
    const computes = client(member2);
    const wantsUrls = client(member2);
    await computes.register({ event_types: ["message"] });
    await wantsUrls.register({ event_types: ["message"], client_gravatar: false });
    await send(member, { type: "stream", to: "ev-gravatar", topic: "t", content: "hi" });
    expect((await computes.poll({ dontBlock: true }))[0]!.message.avatar_url).toBeNull();
    expect((await wantsUrls.poll({ dontBlock: true }))[0]!.message.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
  });

  it("never delivers a private stream's messages to a non-subscriber, even with all_public_streams", async () => {
    const { member, member2, admin } = org.users;
    await createStream(member, "ev-secret", { inviteOnly: true, principals: [member.id] });
    const outsider = client(member2);
    const adminAll = client(admin);
    await outsider.register({ event_types: ["message"] });
    await adminAll.register({ event_types: ["message"], all_public_streams: true });
    await send(member, { type: "stream", to: "ev-secret", topic: "t", content: "private words" });
    expect(await outsider.poll({ dontBlock: true })).toEqual([]);
    expect(await adminAll.poll({ dontBlock: true })).toEqual([]);
  });

  it("gives all_public_streams queues public-stream messages they are not subscribed to, once", async () => {
    const { member, member2, admin } = org.users;
    await createStream(member, "ev-public", { principals: [member.id, member2.id] });
    const all = client(admin);
    const subscribedAll = client(member2);
    await all.register({ event_types: ["message"], all_public_streams: true });
    await subscribedAll.register({ event_types: ["message"], all_public_streams: true });
    const id = await send(member, { type: "stream", to: "ev-public", topic: "t", content: "@**Mia Member** hi" });
    const seen = await all.poll({ dontBlock: true });
    expect(seen).toMatchObject([{ type: "message", flags: [], message: { id } }]);
    const subscribed = await subscribedAll.poll({ dontBlock: true });
    expect(subscribed).toHaveLength(1);
    expect(subscribed[0]!.flags).toContain("mentioned");
  });

  it("gives a narrowed queue public-stream messages beyond its subscriptions, except a guest's", async () => {
    const { member, admin, guest } = org.users;
    await createStream(member, "ev-narrow-public", { principals: [member.id] });
    const narrowed = client(admin);
    const guestNarrowed = client(guest);
    await narrowed.register({ event_types: ["message"], narrow: [["stream", "ev-narrow-public"]] });
    await guestNarrowed.register({ event_types: ["message"], narrow: [["stream", "ev-narrow-public"]] });
    const id = await send(member, { type: "stream", to: "ev-narrow-public", topic: "t", content: "open words" });
    expect(await narrowed.poll({ dontBlock: true })).toMatchObject([{ type: "message", flags: [], message: { id } }]);
    expect(await guestNarrowed.poll({ dontBlock: true })).toEqual([]);
  });

  it("filters message events by narrow", async () => {
    const { member, member2 } = org.users;
    await createStream(member, "ev-narrow-a", { principals: [member.id, member2.id] });
    await createStream(member, "ev-narrow-b", { principals: [member.id, member2.id] });
    const onlyA = client(member2);
    const onlyDms = client(member2);
    await onlyA.register({ event_types: ["message"], narrow: [["stream", "EV-NARROW-A"]] });
    await onlyDms.register({ event_types: ["message"], narrow: [["is", "dm"]] });
    const a = await send(member, { type: "stream", to: "ev-narrow-a", topic: "t", content: "in a" });
    await send(member, { type: "stream", to: "ev-narrow-b", topic: "t", content: "in b" });
    const dm = await send(member, { type: "direct", to: [member2.id], content: "psst" });
    expect((await onlyA.poll({ dontBlock: true })).map((e) => e.message.id)).toEqual([a]);
    expect((await onlyDms.poll({ dontBlock: true })).map((e) => e.message.id)).toEqual([dm]);
  });
});

describe("message initial state", () => {
  it("reports unread conversations, mentions, recent conversations and max_message_id", async () => {
    const reader = await org.createUser("unread-reader");
    const { member, member2 } = org.users;
    const streamId = await createStream(member, "ev-unread", { principals: [member.id, reader.id] });
    const s1 = await send(member, { type: "stream", to: "ev-unread", topic: "alpha", content: "one" });
    const s2 = await send(member, { type: "stream", to: "ev-unread", topic: "alpha", content: "@**unread-reader** two" });
    const s3 = await send(member, { type: "stream", to: "ev-unread", topic: "beta", content: "three" });
    const pm = await send(member, { type: "direct", to: [reader.id], content: "dm" });
    const group = await send(member2, { type: "direct", to: [reader.id, member.id], content: "group" });
    const own = await send(reader, { type: "direct", to: [member.id], content: "reply", read_by_sender: true });

    const body = (await org.api(reader, "POST", "/register", {
      fetch_event_types: ["message", "update_message_flags", "recent_private_conversations", "starred_messages"],
    })).body;
    expect(body.max_message_id).toBe(own);
    expect(body.unread_msgs).toEqual({
      count: 5,
      pms: [{ other_user_id: member.id, sender_id: member.id, unread_message_ids: [pm] }],
      streams: [
        { stream_id: streamId, topic: "alpha", unread_message_ids: [s1, s2] },
        { stream_id: streamId, topic: "beta", unread_message_ids: [s3] },
      ],
      huddles: [
        {
          user_ids_string: [reader.id, member.id, member2.id].sort((x, y) => x - y).join(","),
          unread_message_ids: [group],
        },
      ],
      mentions: [s2],
      old_unreads_missing: false,
    });
    expect(body.recent_private_conversations).toEqual([
      { max_message_id: own, user_ids: [member.id] },
      { max_message_id: group, user_ids: [member.id, member2.id].sort((x, y) => x - y) },
    ]);
    expect(body.starred_messages).toEqual([]);
  });
});

describe("subscription initial state", () => {
  it("lists subscriptions, unsubscribed and never-subscribed streams the user may see", async () => {
    const user = await org.createUser("subs-reader");
    const { member } = org.users;
    const joined = await createStream(member, "ev-joined", { principals: [member.id, user.id] });
    const left = await createStream(member, "ev-left", { principals: [member.id, user.id] });
    const never = await createStream(member, "ev-never", { principals: [member.id] });
    const secret = await createStream(member, "ev-hidden", { inviteOnly: true, principals: [member.id] });
    const unsub = await org.api(user, "DELETE", "/users/me/subscriptions", { subscriptions: ["ev-left"] });
    expect(unsub.body).toMatchObject({ result: "success", removed: ["ev-left"] });

    const body = (await org.api(user, "POST", "/register", {
      fetch_event_types: ["subscription", "stream"],
      include_subscribers: true,
    })).body;
    const idsOf = (list: { stream_id: number }[]) => list.map((s) => s.stream_id);
    expect(idsOf(body.subscriptions)).toContain(joined);
    expect(idsOf(body.subscriptions)).not.toContain(left);
    expect(idsOf(body.unsubscribed)).toEqual([left]);
    expect(idsOf(body.never_subscribed)).toContain(never);
    expect(idsOf(body.never_subscribed)).not.toContain(secret);
    expect(idsOf(body.streams)).not.toContain(secret);
    const sub = body.subscriptions.find((s: { stream_id: number }) => s.stream_id === joined);
    expect(sub.subscribers).toEqual([member.id, user.id].sort((a, b) => a - b));
    // Without notification_settings_null, inherited settings come as the user's booleans.
    expect(sub).toMatchObject({ desktop_notifications: false, audible_notifications: false, wildcard_mentions_notify: true });

    const admin = (await org.api(org.users.admin, "POST", "/register", { fetch_event_types: ["stream"] })).body;
    expect(idsOf(admin.streams)).toContain(secret);

    const nullable = (await org.api(user, "POST", "/register", {
      fetch_event_types: ["subscription"],
      client_capabilities: { notification_settings_null: true },
    })).body;
    expect(nullable.subscriptions.find((s: { stream_id: number }) => s.stream_id === joined)).toMatchObject({
      desktop_notifications: null,
    });
  });

  it("delivers subscription and stream events that match their schemas", async () => {
    const watcher = client(org.users.member2);
    await watcher.register({ event_types: ["subscription", "stream"] });
    await createStream(org.users.member, "ev-sub-events", { principals: [org.users.member.id, org.users.member2.id] });
    const events = await watcher.poll({ dontBlock: true });
    expect(events.map((e) => `${e.type}/${e.op}`)).toEqual(expect.arrayContaining(["subscription/add"]));
  });
});
