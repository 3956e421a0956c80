import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import zulipInit from "zulip-js";
import { writeZuliprc } from "../../infra/local/bootstrap.js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { decodeStoredEvent } from "../../shared/data/event-codec.js";
import { keys } from "../../shared/data/keys.js";
import { updateUserFields } from "../../shared/data/users.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

/** Creates a stream through the API, subscribing `principals` (default: the creator). */
async function createStream(
  creator: TestUser,
  name: string,
  opts: { inviteOnly?: boolean; principals?: number[]; streamPostPolicy?: number } = {},
): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", {
    subscriptions: [{ name }],
    ...(opts.inviteOnly ? { invite_only: true } : {}),
    ...(opts.principals ? { principals: opts.principals } : {}),
    ...(opts.streamPostPolicy ? { stream_post_policy: opts.streamPostPolicy } : {}),
  });
  expect(res.body).toMatchObject({ result: "success" });
  const id = await org.api(creator, "GET", "/get_stream_id", { stream: name });
  return id.body.stream_id as number;
}

async function send(user: TestUser, params: Record<string, unknown>) {
  return org.api(user, "POST", "/messages", params);
}

async function getItem(key: Record<string, unknown>) {
  const out = await org.stack.deps.db.send(new GetCommand({ TableName: org.stack.deps.table, Key: key }));
  return out.Item;
}

async function userMessageRows(messageId: number, userIds: number[]) {
  const rows = await Promise.all(userIds.map((u) => getItem(keys.userMessage(u, messageId))));
  return new Map(userIds.map((u, i) => [u, rows[i]]));
}

async function newest(user: TestUser, narrow: unknown[] = []) {
  const res = await org.api(user, "GET", "/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow });
  expect(res.status).toBe(200);
  return res.body.messages as Record<string, any>[];
}

describe("POST /messages to a stream", () => {
  it("sends by name and stores a message every subscriber can read with their flags", async () => {
    const { member, member2, admin } = org.users;
    const streamId = await createStream(member, "send-basic", { principals: [member.id, member2.id] });

    const res = await send(member, { type: "stream", to: "send-basic", topic: "greetings", content: "Hello **world**" });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    const id = res.body.id as number;
    const stream = await getItem(keys.stream(org.realm.id, streamId));
    const got = await org.api(member2, "GET", `/messages/${id}`);
    expect(got.body).toEqual({
      result: "success",
      msg: "",
      raw_content: "Hello **world**",
      message: {
        id,
        type: "stream",
        sender_id: member.id,
        sender_email: "member@test.example",
        sender_full_name: "Max Member",
        sender_realm_str: "",
        avatar_url: expect.stringContaining("https://secure.gravatar.com/avatar/"),
        recipient_id: stream!.recipient_id,
        stream_id: streamId,
        display_recipient: "send-basic",
        subject: "greetings",
        topic_links: [],
        content: "<p>Hello <strong>world</strong></p>",
        content_type: "text/html",
        timestamp: expect.any(Number),
        client: expect.any(String),
        is_me_message: false,
        reactions: [],
        submessages: [],
        flags: [],
      },
    });
    // Subscribers and the sender have rows; a non-subscriber has none.
    const rows = await userMessageRows(id, [member.id, member2.id, admin.id]);
    // A stream message's row names no stream (the message item does), so a move never rewrites it.
    expect(rows.get(member.id)).toMatchObject({ flags: [] });
    expect(rows.get(member.id)!.recipient_id).toBeUndefined();
    expect(rows.get(member2.id)).toMatchObject({ flags: [] });
    expect(rows.get(admin.id)).toBeUndefined();
  });

  it("accepts the stream as a JSON integer ID, a JSON string and the `subject` alias", async () => {
    const { member } = org.users;
    const streamId = await createStream(member, "send-ids");
    const byId = await send(member, { type: "stream", to: streamId, topic: "a", content: "by id" });
    const byJsonName = await send(member, { type: "channel", to: JSON.stringify("send-ids"), subject: "b", content: "by json" });
    expect(byId.body.result).toBe("success");
    expect(byJsonName.body.result).toBe("success");
    const messages = await newest(member, [{ operator: "channel", operand: streamId }]);
    expect(messages.map((m) => [m.content, m.subject])).toEqual([
      ["<p>by id</p>", "a"],
      ["<p>by json</p>", "b"],
    ]);
  });

  it("refuses unknown streams with STREAM_DOES_NOT_EXIST", async () => {
    const byName = await send(org.users.member, { type: "stream", to: "no-such-stream", topic: "t", content: "x" });
    expect(byName.status).toBe(400);
    expect(byName.body).toEqual({
      result: "error",
      msg: "Channel 'no-such-stream' does not exist",
      code: "STREAM_DOES_NOT_EXIST",
      stream: "no-such-stream",
    });
    const byId = await send(org.users.member, { type: "stream", to: 999999, topic: "t", content: "x" });
    expect(byId.body).toEqual({
      result: "error",
      msg: "Channel with ID '999999' does not exist",
      code: "STREAM_DOES_NOT_EXIST",
      stream_id: 999999,
    });
  });

  it("validates content and topic with Zulip's errors", async () => {
    const { member } = org.users;
    await createStream(member, "send-validate");
    const cases: [Record<string, unknown>, string][] = [
      [{ type: "stream", to: "send-validate", topic: "t", content: "  \n " }, "Message must not be empty"],
      [{ type: "stream", to: "send-validate", content: "x" }, "Missing topic"],
      [{ type: "stream", to: "send-validate", topic: "   ", content: "x" }, "Topic can't be empty!"],
      [{ type: "stream", to: "send-validate", topic: "Test\n\rTopic", content: "x" }, "Invalid character in topic, at position 5!"],
      [{ type: "news", to: "send-validate", topic: "t", content: "x" }, "Invalid type"],
      [{ type: "stream", topic: "t", content: "x" }, "Missing 'to' argument"],
      [{ type: "stream", to: "send-validate", topic: "t" }, "Missing 'content' argument"],
    ];
    for (const [params, msg] of cases) {
      const res = await send(member, params);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: "error", msg });
    }
    expect(await newest(member, [["stream", "send-validate"]])).toEqual([]);
  });

  it("truncates a topic over 60 characters to 57 and '...' (Zulip's truncate_topic)", async () => {
    const { member } = org.users;
    await createStream(member, "send-long-topic");
    const res = await send(member, { type: "stream", to: "send-long-topic", topic: "t".repeat(70), content: "x" });
    expect(res.body.result).toBe("success");
    const [m] = await newest(member, [["stream", "send-long-topic"]]);
    expect(m!.subject).toBe(`${"t".repeat(57)}...`);
  });

  it("truncates content over 10000 bytes, ending it with '[message truncated]'", async () => {
    const { member } = org.users;
    await createStream(member, "send-long-content");
    const res = await send(member, { type: "stream", to: "send-long-content", topic: "t", content: "é".repeat(6000) });
    expect(res.body.result).toBe("success");
    const got = await org.api(member, "GET", `/messages/${res.body.id}`, { apply_markdown: false });
    const raw = got.body.raw_content as string;
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(10000);
    expect(raw.endsWith("\n[message truncated]")).toBe(true);
    expect(raw.startsWith("éééé")).toBe(true);
    expect(got.body.message.content).toBe(raw);
    expect(got.body.message.content_type).toBe("text/x-markdown");
  });

  it("refuses non-subscribers of a private stream, and changes nothing", async () => {
    const { member, member2 } = org.users;
    const streamId = await createStream(member, "send-private", { inviteOnly: true });
    const res = await send(member2, { type: "stream", to: "send-private", topic: "t", content: "let me in" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Not authorized to send to channel 'send-private'", code: "BAD_REQUEST" });
    expect(await newest(member, [{ operator: "stream", operand: streamId }])).toEqual([]);
    // A subscriber may post.
    expect((await send(member, { type: "stream", to: streamId, topic: "t", content: "inside" })).body.result).toBe("success");
  });

  it("lets guests post only to streams they are subscribed to", async () => {
    const { member, guest } = org.users;
    await createStream(member, "send-guest-no");
    await createStream(member, "send-guest-yes", { principals: [member.id, guest.id] });
    const refused = await send(guest, { type: "stream", to: "send-guest-no", topic: "t", content: "hi" });
    expect(refused.body).toMatchObject({ result: "error", msg: "Not authorized to send to channel 'send-guest-no'" });
    const allowed = await send(guest, { type: "stream", to: "send-guest-yes", topic: "t", content: "hi" });
    expect(allowed.body.result).toBe("success");
  });

  it("enforces stream_post_policy 2 (administrators), 4 (moderators) and 3 (full members)", async () => {
    const { admin, moderator, member, guest } = org.users;
    const all = [admin.id, moderator.id, member.id, guest.id];
    await createStream(admin, "send-policy-2", { principals: all, streamPostPolicy: 2 });
    await createStream(admin, "send-policy-4", { principals: all, streamPostPolicy: 4 });
    await createStream(admin, "send-policy-3", { principals: all, streamPostPolicy: 3 });
    const post = (u: TestUser, to: string) => send(u, { type: "stream", to, topic: "t", content: "x" });

    expect((await post(moderator, "send-policy-2")).body).toMatchObject({
      result: "error",
      msg: "Only organization administrators can send to this channel.",
    });
    expect((await post(admin, "send-policy-2")).body.result).toBe("success");
    expect((await post(member, "send-policy-4")).body).toMatchObject({
      result: "error",
      msg: "Only organization administrators and moderators can send to this channel.",
    });
    expect((await post(moderator, "send-policy-4")).body.result).toBe("success");
    expect((await post(guest, "send-policy-3")).body).toMatchObject({ result: "error", msg: "Guests cannot send to this channel." });
    expect((await post(member, "send-policy-3")).body.result).toBe("success");
  });

  it("marks the sender's copy read only for Zulip's own apps, or when read_by_sender says so", async () => {
    const { member } = org.users;
    await createStream(member, "send-read");
    const fromApi = await send(member, { type: "stream", to: "send-read", topic: "t", content: "api" });
    const fromWeb = await send(member, { type: "stream", to: "send-read", topic: "t", content: "web", client: "website" });
    const explicit = await send(member, { type: "stream", to: "send-read", topic: "t", content: "x", read_by_sender: true });
    const flags = async (id: number) => (await getItem(keys.userMessage(member.id, id)))!.flags;
    expect(await flags(fromApi.body.id)).toEqual([]);
    expect(await flags(fromWeb.body.id)).toEqual(["read"]);
    expect(await flags(explicit.body.id)).toEqual(["read"]);
    const [web] = (await newest(member, [["stream", "send-read"]])).filter((m) => m.id === fromWeb.body.id);
    expect(web!.client).toBe("website");
  });

  it("flags direct mentions and wildcard mentions for the right recipients", async () => {
    const { member, member2, admin } = org.users;
    await createStream(member, "send-mentions", { principals: [member.id, member2.id] });
    const direct = await send(member, { type: "stream", to: "send-mentions", topic: "t", content: "hi @**Mia Member**" });
    const wildcard = await send(member, { type: "stream", to: "send-mentions", topic: "t", content: "hey @**all**" });
    const rows = await userMessageRows(direct.body.id, [member.id, member2.id]);
    expect(rows.get(member2.id)!.flags).toEqual(["mentioned"]);
    expect(rows.get(member.id)!.flags).toEqual([]);
    const wild = await userMessageRows(wildcard.body.id, [member.id, member2.id, admin.id]);
    expect(wild.get(member2.id)!.flags).toEqual(["stream_wildcard_mentioned"]);
    expect(wild.get(admin.id)).toBeUndefined();
    const [m] = (await newest(member2, [["stream", "send-mentions"]])).filter((x) => x.id === wildcard.body.id);
    expect(m!.flags).toEqual(["stream_wildcard_mentioned", "wildcard_mentioned"]);
    expect(m!.content).toContain("user-mention");
  });
});

describe("POST /messages, private", () => {
  it("sends to user IDs, emails and a comma-separated string; one conversation, one recipient ID", async () => {
    const { member, member2, moderator } = org.users;
    const a = await send(member, { type: "private", to: [member2.id, moderator.id], content: "ids" });
    const b = await send(member2, { type: "direct", to: ["moderator@test.example", "member@test.example"], content: "emails" });
    const c = await send(moderator, { type: "private", to: "member@test.example,member2@test.example", content: "csv" });
    for (const r of [a, b, c]) expect(r.body.result).toBe("success");

    const seen = await newest(moderator, [{ operator: "dm", operand: [member.id, member2.id] }]);
    expect(seen.map((m) => m.content)).toEqual(["<p>ids</p>", "<p>emails</p>", "<p>csv</p>"]);
    expect(new Set(seen.map((m) => m.recipient_id)).size).toBe(1);
    expect(seen[0]).toMatchObject({
      type: "private",
      subject: "",
      display_recipient: [member, member2, moderator]
        .sort((x, y) => x.id - y.id)
        .map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false })),
    });
    expect(seen[0]).not.toHaveProperty("stream_id");
    // A 1:1 conversation is another recipient.
    const oneToOne = await send(member, { type: "private", to: [member2.id], content: "just us" });
    const [m] = await newest(member2, [{ operator: "dm", operand: [member.id] }]);
    expect(m!.id).toBe(oneToOne.body.id);
    expect(m!.recipient_id).not.toBe(seen[0]!.recipient_id);
  });

  it("refuses unknown recipients with Zulip's messages", async () => {
    const byEmail = await send(org.users.member, { type: "private", to: ["nobody@test.example"], content: "x" });
    expect(byEmail.body).toEqual({ result: "error", msg: "Invalid email 'nobody@test.example'", code: "BAD_REQUEST" });
    const byId = await send(org.users.member, { type: "private", to: [987654], content: "x" });
    expect(byId.body).toEqual({ result: "error", msg: "Invalid user ID 987654", code: "BAD_REQUEST" });
    const mixed = await send(org.users.member, { type: "private", to: [org.users.member2.id, "admin@test.example"], content: "x" });
    expect(mixed.body.msg).toBe("Recipient lists may contain emails or user IDs, but not both.");
  });

  it("refuses deactivated recipients", async () => {
    const gone = await org.createUser("gone-user");
    await updateUserFields(org.stack.deps, org.realm.id, gone.id, { is_active: false });
    const res = await send(org.users.member, { type: "private", to: [gone.id], content: "hello?" });
    expect(res.body).toEqual({ result: "error", msg: "'gone-user@test.example' is no longer using Zulip.", code: "BAD_REQUEST" });
  });

  it("lets guests send private messages", async () => {
    const res = await send(org.users.guest, { type: "private", to: [org.users.member.id], content: "hi from a guest" });
    expect(res.body.result).toBe("success");
  });

  it("keeps the same recipient ID when two senders start a conversation at the same time", async () => {
    const a = await org.createUser("race-a");
    const b = await org.createUser("race-b");
    const [r1, r2] = await Promise.all([
      send(a, { type: "private", to: [b.id], content: "one" }),
      send(b, { type: "private", to: [a.id], content: "two" }),
    ]);
    const m1 = await getItem(keys.message(r1.body.id));
    const m2 = await getItem(keys.message(r2.body.id));
    expect(m1!.recipient_id).toBe(m2!.recipient_id);
  });
});

describe("POST /messages, large streams and deferred work", () => {
  it("posts to a 150-subscriber stream at once; rows and events of the others follow via deferred jobs", async () => {
    const { member } = org.users;
    // Users without a password (no scrypt): 149 of them in parallel batches.
    const extra: TestUser[] = [];
    for (let i = 0; i < 149; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, 149 - i) }, (_, j) =>
          doCreateUser(org.stack.deps, org.realm, { email: `crowd-${i + j}@test.example`, full_name: `Crowd ${i + j}`, role: 400 }),
        ),
      );
      extra.push(...batch.map((u) => ({ id: u.user_id, email: u.delivery_email, apiKey: u.api_key, fullName: u.full_name, role: u.role })));
    }
    const streamId = await createStream(member, "send-crowd", { principals: [member.id, ...extra.map((u) => u.id)] });
    await org.stack.drainDeferredWork();

    const res = await send(member, { type: "stream", to: streamId, topic: "hello all", content: "big announcement" });
    expect(res.body.result).toBe("success");
    const id = res.body.id as number;
    // Readable on the stream narrow right away, by anyone subscribed.
    const [seen] = await newest(extra[10]!, [{ operator: "stream", operand: streamId }]);
    expect(seen!.id).toBe(id);
    // The sender's row is written inline.
    expect(await getItem(keys.userMessage(member.id, id))).toBeDefined();

    await org.stack.drainDeferredWork();
    const rows = await userMessageRows(id, extra.map((u) => u.id));
    expect([...rows.values()].every((r) => r !== undefined && Array.isArray(r.flags) && r.flags.length === 0)).toBe(true);
    // Every recipient's event log holds the message event with its flags.
    const events = await org.stack.deps.db.send(
      new QueryCommand({
        TableName: org.stack.deps.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.userEvents(extra[120]!.id).pk },
      }),
    );
    const messageEvents = (events.Items ?? []).filter((e) => {
      const event = decodeStoredEvent(e.event);
      return event.type === "message" && (event.message as { id: number }).id === id;
    });
    expect(messageEvents).toHaveLength(1);
    expect(messageEvents[0]!.flags).toEqual([]);
    // And the home view (UM base) now has it.
    const home = await newest(extra[120]!);
    expect(home.map((x) => x.id)).toEqual([id]);
    // 149 users created (each announced to the organization), one subscription of 150, one send and its jobs:
    // a budget by that work (about 4 s a user on a busy machine), not a clock.
  }, 600_000);
});

describe("POST /messages, events", () => {
  it("writes a message event with per-user flags to every recipient's log after storing the message", async () => {
    const { member, member2 } = org.users;
    const res = await send(member, { type: "private", to: [member2.id], content: "ping @**Mia Member**", queue_id: "q1", local_id: "7.01" });
    const copyIn = async (userId: number) => {
      const events = await org.stack.deps.db.send(
        new QueryCommand({
          TableName: org.stack.deps.table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": keys.userEvents(userId).pk },
        }),
      );
      return (events.Items ?? [])
        .map((e) => ({ flags: e.flags as string[], event: decodeStoredEvent(e.event) }))
        .find(({ event }) => event.type === "message" && (event.message as { id: number }).id === res.body.id);
    };
    const copy = await copyIn(member2.id);
    expect(copy!.flags).toEqual(["mentioned"]);
    expect(copy!.event).toMatchObject({
      type: "message",
      raw_content: "ping @**Mia Member**",
      message: { id: res.body.id, type: "private", content_type: "text/html", sender_id: member.id },
    });
    expect(copy!.event.message).not.toHaveProperty("flags");
    // Only the sending queue reports the local echo, so only the sender's copy keeps it.
    expect(copy!.event).not.toHaveProperty("local_id");
    expect((await copyIn(member.id))!.event).toMatchObject({ local_id: "7.01", sender_queue_id: "q1" });
  });
});

describe("zulip-js", () => {
  it("sends and retrieves messages through the npm client (multipart bodies, JSON narrow)", async () => {
    const { member } = org.users;
    await createStream(member, "zulip-js-stream");
    const dir = await mkdtemp(join(tmpdir(), "zuliprc-"));
    const path = join(dir, "zuliprc");
    await writeZuliprc(path, { site: org.url, email: member.email, apiKey: member.apiKey });
    const zulip = await zulipInit({ zuliprc: path });

    const sent = await zulip.messages.send({ to: "zulip-js-stream", type: "stream", topic: "via js", content: "from **zulip-js**" });
    expect(sent).toMatchObject({ result: "success", id: expect.any(Number) });
    const dm = await zulip.messages.send({ to: [org.users.member2.id], type: "private", content: "dm from js" });
    expect(dm).toMatchObject({ result: "success" });

    const got = await zulip.messages.retrieve({
      anchor: "newest",
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: "stream", operand: "zulip-js-stream" }],
    });
    expect(got).toMatchObject({ result: "success", found_newest: true, found_oldest: true });
    expect(got.messages.map((m: { id: number }) => m.id)).toEqual([sent.id]);
    expect(got.messages[0]).toMatchObject({ subject: "via js", content: "<p>from <strong>zulip-js</strong></p>" });
  });
});

