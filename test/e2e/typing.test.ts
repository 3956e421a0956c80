import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { keys } from "../../shared/data/keys.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const client = (user: TestUser) => queueClient(org, user);

async function queueOf(user: TestUser, capabilities: Record<string, boolean> = {}): Promise<EventQueueClient> {
  const q = client(user);
  await q.register({ event_types: ["typing"], client_capabilities: capabilities });
  return q;
}

async function createStream(creator: TestUser, name: string, opts: { inviteOnly?: boolean; principals?: number[] } = {}) {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", {
    subscriptions: [{ name }],
    ...(opts.inviteOnly ? { invite_only: true } : {}),
    ...(opts.principals ? { principals: opts.principals } : {}),
  });
  expect(res.body).toMatchObject({ result: "success" });
  return (await org.api(creator, "GET", "/get_stream_id", { stream: name })).body.stream_id as number;
}

describe("POST /typing to a direct conversation", () => {
  it("notifies the other participants, never the sender", async () => {
    const { member, member2, moderator } = org.users;
    const [senderQ, q2, q3] = await Promise.all([queueOf(member), queueOf(member2), queueOf(moderator)]);
    const res = await org.api(member, "POST", "/typing", { op: "start", to: [member2.id, moderator.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const expected = {
      type: "typing",
      op: "start",
      id: 0,
      message_type: "direct",
      sender: { user_id: member.id, email: member.email },
      recipients: [
        { user_id: member2.id, email: member2.email },
        { user_id: moderator.id, email: moderator.email },
        { user_id: member.id, email: member.email },
      ],
    };
    expect(await q2.poll({ dontBlock: true })).toEqual([expected]);
    expect(await q3.poll({ dontBlock: true })).toEqual([expected]);
    expect(await senderQ.poll({ dontBlock: true })).toEqual([]);

    await org.api(member, "POST", "/typing", { op: "stop", type: "private", to: [member2.id] });
    expect(await q2.poll({ dontBlock: true })).toMatchObject([{ type: "typing", op: "stop", id: 1 }]);
  });

  it("skips recipients who turned typing notifications off", async () => {
    const quiet = await org.createUser("typing-quiet");
    expect((await org.api(quiet, "PATCH", "/settings", { receives_typing_notifications: false })).status).toBe(200);
    const q = await queueOf(quiet);
    await org.api(org.users.member, "POST", "/typing", { op: "start", to: [quiet.id] });
    expect(await q.poll({ dontBlock: true })).toEqual([]);
  });

  it("refuses senders who disabled sending them", async () => {
    const shy = await org.createUser("typing-shy");
    expect((await org.api(shy, "PATCH", "/settings", { send_private_typing_notifications: false })).status).toBe(200);
    const res = await org.api(shy, "POST", "/typing", { op: "start", to: [org.users.member.id] });
    expect(res.body).toEqual({
      result: "error",
      msg: "User has disabled typing notifications for direct messages",
      code: "BAD_REQUEST",
    });
  });

  it("refuses bad input with Zulip's messages and notifies nobody", async () => {
    const q = await queueOf(org.users.member2);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ to: [org.users.member2.id] }, { msg: "Missing 'op' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "op" }],
      [{ op: "begin", to: [org.users.member2.id] }, { msg: "Invalid op", code: "BAD_REQUEST" }],
      [{ op: "start", type: "huddle", to: [org.users.member2.id] }, { msg: "Invalid type", code: "BAD_REQUEST" }],
      [{ op: "start" }, { msg: "Missing 'to' argument", code: "BAD_REQUEST" }],
      [{ op: "start", to: [] }, { msg: "Empty 'to' list", code: "BAD_REQUEST" }],
      [{ op: "start", to: [org.users.member2.id, 999999] }, { msg: "Invalid user ID 999999", code: "BAD_REQUEST" }],
      [{ op: "start", to: "member2" }, { msg: 'Argument "to" is not valid JSON.', code: "BAD_REQUEST" }],
      [{ op: "start", to: ["x"] }, { msg: "to[0] is not an integer", code: "BAD_REQUEST" }],
    ];
    for (const [params, error] of cases) {
      const res = await org.api(org.users.member, "POST", "/typing", params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body).toEqual({ result: "error", ...error });
    }
    expect(await q.poll({ dontBlock: true })).toEqual([]);
  });
});

describe("POST /typing to a stream topic", () => {
  it("notifies subscribers whose clients support stream typing, never the sender or outsiders", async () => {
    const { member, member2, moderator, admin } = org.users;
    const streamId = await createStream(member, "typing-stream", { principals: [member.id, member2.id, moderator.id] });
    const capable = await queueOf(member2, { stream_typing_notifications: true });
    const legacy = await queueOf(moderator);
    const outsider = await queueOf(admin, { stream_typing_notifications: true });
    const sender = await queueOf(member, { stream_typing_notifications: true });

    const res = await org.api(member, "POST", "/typing", { op: "start", type: "stream", stream_id: streamId, topic: "plans" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await capable.poll({ dontBlock: true })).toEqual([
      {
        type: "typing",
        op: "start",
        id: 0,
        message_type: "stream",
        sender: { user_id: member.id, email: member.email },
        stream_id: streamId,
        topic: "plans",
      },
    ]);
    expect(await legacy.poll({ dontBlock: true })).toEqual([]);
    expect(await outsider.poll({ dontBlock: true })).toEqual([]);
    expect(await sender.poll({ dontBlock: true })).toEqual([]);

    await org.api(member, "POST", "/typing", { op: "stop", type: "channel", stream_id: streamId, topic: "plans" });
    expect(await capable.poll({ dontBlock: true })).toMatchObject([{ op: "stop", id: 1, stream_id: streamId }]);
  });

  it("writes one realm typing-log item addressed to the recipients, not a copy per subscriber; redelivers it until acknowledged", async () => {
    // Prepare
    const { member, member2, moderator, admin } = org.users;
    const streamId = await createStream(member, "typing-log", { principals: [member.id, member2.id, moderator.id] });
    const q2 = await queueOf(member2, { stream_typing_notifications: true });
    const qm = await queueOf(moderator, { stream_typing_notifications: true });
    const outsider = await queueOf(admin, { stream_typing_notifications: true });
    const query = async (pk: string) =>
      (
        await org.stack.deps.db.send(
          new QueryCommand({ TableName: org.stack.deps.table, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk } }),
        )
      ).Items ?? [];
    const typingItems = async () =>
      (await query(keys.realmTypingEvents(org.realm.id).pk)).filter((i) => i.event.stream_id === streamId);
    const userLogTyping = async (userId: number) =>
      (await query(keys.userEvents(userId).pk)).filter((i) => i.event.type === "typing");
    const userLogBefore = (await userLogTyping(member2.id)).length;

    // Act: a waiting long poll is woken by the write.
    const waiting = q2.poll();
    const res = await org.api(member, "POST", "/typing", { op: "start", type: "stream", stream_id: streamId, topic: "logs" });

    // Assess
    expect(res.body).toEqual({ result: "success", msg: "" });
    const expected = {
      type: "typing",
      op: "start",
      id: 0,
      message_type: "stream",
      sender: { user_id: member.id, email: member.email },
      stream_id: streamId,
      topic: "logs",
    };
    expect(await waiting).toEqual([expected]);
    const items = await typingItems();
    expect(items).toHaveLength(1);
    expect(items[0]!.user_ids).toEqual([member2.id, moderator.id].sort((a, b) => a - b));
    expect((await userLogTyping(member2.id)).length).toBe(userLogBefore);
    // Not acknowledged: the same event with the same ID again, then nothing new once acknowledged.
    const again = await qm.call("GET", "/events", { queue_id: qm.queueId, last_event_id: -1, dont_block: true });
    expect(again.body.events).toEqual([expected]);
    expect(await qm.poll({ dontBlock: true })).toEqual([expected]);
    expect(await qm.poll({ dontBlock: true })).toEqual([]);
    expect(await q2.poll({ dontBlock: true })).toEqual([]);
    expect(await outsider.poll({ dontBlock: true })).toEqual([]);
    // Items addressed to others move a queue's typing cursor past them, so later reads cover only the look-back window
    // (saved with the next answer that carries an event: here a direct typing notification).
    await org.api(member, "POST", "/typing", { op: "start", to: [admin.id] });
    expect(await outsider.poll({ dontBlock: true })).toMatchObject([{ type: "typing", message_type: "direct" }]);
    const saved = await org.stack.deps.db.send(new GetCommand({ TableName: org.stack.deps.table, Key: keys.eventQueue(outsider.queueId!) }));
    expect(String(saved.Item!.typing_cursor) >= String(items[0]!.sk).slice(0, 13)).toBe(true);
  });

  it("refuses a missing stream or topic, and streams the sender cannot see", async () => {
    const { member, member2 } = org.users;
    const secret = await createStream(member, "typing-secret", { inviteOnly: true, principals: [member.id] });
    const missingStream = await org.api(member2, "POST", "/typing", { op: "start", type: "stream", topic: "x" });
    expect(missingStream.body).toEqual({ result: "error", msg: "Missing 'stream_id' argument", code: "BAD_REQUEST" });
    const missingTopic = await org.api(member2, "POST", "/typing", { op: "start", type: "stream", stream_id: secret });
    expect(missingTopic.body).toEqual({ result: "error", msg: "Missing topic", code: "BAD_REQUEST" });
    const hidden = await org.api(member2, "POST", "/typing", { op: "start", type: "stream", stream_id: secret, topic: "x" });
    expect(hidden.body).toEqual({ result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });
    const unknown = await org.api(member2, "POST", "/typing", { op: "start", type: "stream", stream_id: 987654, topic: "x" });
    expect(unknown.body).toEqual({ result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });
  });
});
