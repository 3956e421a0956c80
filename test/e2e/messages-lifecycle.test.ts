import { beforeAll, describe, expect, it } from "vitest";
import { batchWrite } from "../../shared/data/batch-write.js";
import { allocateIds } from "../../shared/data/counters.js";
import { messageById, getMessageRecipients, messageItem, sendRecipientsItems } from "../../shared/data/messages.js";
import { getUserMessages, userMessageItem } from "../../shared/data/user-messages.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { createStream, markEvents } from "./streams-helpers.js";
import { messageReactions } from "../../shared/data/reactions.js";

const org = useTestOrg();

async function send(user: TestUser, stream: string, topic: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function topicMessages(user: TestUser, stream: string, topic: string) {
  const res = await org.api(user, "GET", "/messages", {
    anchor: "newest",
    num_before: 1000,
    num_after: 0,
    narrow: [{ operator: "stream", operand: stream }, { operator: "topic", operand: topic }],
    apply_markdown: false,
  });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.messages as Record<string, any>[];
}


const mention = (u: TestUser) => `@_**${u.fullName}|${u.id}**`;

describe("recipients item", () => {
  it("reaches users who received a message and unsubscribed since: edits, reactions, delete", async () => {
    const { member, member2, admin } = org.users;
    await createStream(org, member, "rcpt", { principals: [member.id, member2.id] });
    const id = await send(member, "rcpt", "r", "hello");
    expect((await getMessageRecipients(org.stack.deps, id)).userIds).toEqual([member.id, member2.id].sort((a, b) => a - b));
    const left = await org.api(member2, "DELETE", "/users/me/subscriptions", { subscriptions: ["rcpt"] });
    expect(left.body).toMatchObject({ result: "success" });

    const marks = await markEvents(org, [member2]);
    expect((await org.api(member, "PATCH", `/messages/${id}`, { content: "hello again" })).body.result).toBe("success");
    expect((await org.api(member, "POST", `/messages/${id}/reactions`, { emoji_name: "smile" })).body.result).toBe("success");
    expect((await org.api(admin, "DELETE", `/messages/${id}`, {})).body.result).toBe("success");

    const events = await marks.since(member2);
    const types = events.map((e) => e.type);
    // The message was the stream's first: the stream's first_message_id moves on too.
    expect(types).toEqual(["update_message", "reaction", "delete_message", "stream"]);
    expect(events[3]).toMatchObject({ op: "update", property: "first_message_id", value: null });
    for (const e of events) validateEvent({ ...e, id: 0 });
    expect(events[1]).toMatchObject({
      op: "add",
      user_id: member.id,
      user: { user_id: member.id, email: member.email, full_name: member.fullName },
    });
    expect((await getUserMessages(org.stack.deps, member2.id, [id])).size).toBe(0);
    expect((await getUserMessages(org.stack.deps, member.id, [id])).size).toBe(0);
    expect((await getMessageRecipients(org.stack.deps, id)).found).toBe(false);
  });

  it("a historical row (reacting to an old public message) joins the recipients", async () => {
    const { member, owner } = org.users;
    await createStream(org, member, "rcpt-hist", {});
    const id = await send(member, "rcpt-hist", "h", "old news");
    expect((await getMessageRecipients(org.stack.deps, id)).userIds).toEqual([member.id]);
    expect((await org.api(owner, "POST", `/messages/${id}/reactions`, { emoji_name: "smile" })).body.result).toBe("success");
    expect((await getMessageRecipients(org.stack.deps, id)).userIds).toEqual([owner.id, member.id].sort((a, b) => a - b));
    expect((await getUserMessages(org.stack.deps, owner.id, [id])).get(id)!.flags).toEqual(["read", "historical"]);
  });
});

describe("moving messages between streams", () => {
  it("change_later to a public stream: items, rows, notices, events; guests lose the messages", async () => {
    const { member, member2, moderator, guest } = org.users;
    const a = (await createStream(org, member, "mv-a", { principals: [member.id, member2.id, moderator.id, guest.id] })).stream_id;
    const b = await createStream(org, moderator, "mv-b", { principals: [moderator.id, member.id] });
    const ids = [await send(member, "mv-a", "t", "m0"), await send(member, "mv-a", "t", "m1"), await send(member, "mv-a", "t", "m2")];
    const marks = await markEvents(org, [member, member2, guest]);

    const res = await org.api(moderator, "PATCH", `/messages/${ids[1]}`, { stream_id: b.stream_id, propagate_mode: "change_later" });
    expect(res.body).toEqual({ result: "success", msg: "" });

    for (const id of [ids[1]!, ids[2]!]) {
      const m = (await messageById(org.stack.deps, id))!;
      expect(m).toMatchObject({ stream_id: b.stream_id, recipient_id: b.recipient_id, display_recipient: "mv-b", topic: "t" });
      expect(m.edit_history[0]).toEqual({ user_id: moderator.id, timestamp: m.last_edit_timestamp, prev_stream: a, stream: b.stream_id });
      // The member keeps the message: the row stays as it was, naming no stream (the message item says where it is).
      const row = (await getUserMessages(org.stack.deps, member.id, [id])).get(id)!;
      expect(row.recipient_id).toBeUndefined();
    }
    expect((await messageById(org.stack.deps, ids[0]!))!.stream_id).toBe(a);
    // Notices (both default to true, as the spec says).
    expect((await topicMessages(member, "mv-a", "t")).map((m) => m.content)).toEqual([
      "m0",
      `2 messages were moved from this topic to #**mv-b>t** by ${mention(moderator)}.`,
    ]);
    expect((await topicMessages(member, "mv-b", "t")).map((m) => m.content)).toEqual([
      "m1",
      "m2",
      `2 messages were moved here from #**mv-a>t** by ${mention(moderator)}.`,
    ]);

    const memberEvent = (await marks.since(member)).find((e) => e.type === "update_message")!;
    validateEvent({ ...memberEvent, id: 0 });
    expect(memberEvent).toMatchObject({
      user_id: moderator.id,
      message_id: ids[1],
      message_ids: [ids[1], ids[2]],
      stream_id: a,
      new_stream_id: b.stream_id,
      orig_subject: "t",
      propagate_mode: "change_later",
    });
    expect(memberEvent.subject).toBeUndefined();

    // member2: public destination, not subscribed: row dropped, still readable, told with ["read"].
    expect((await getUserMessages(org.stack.deps, member2.id, [ids[1]!])).size).toBe(0);
    expect((await org.api(member2, "GET", `/messages/${ids[1]}`, {})).body.result).toBe("success");
    const m2Event = (await marks.since(member2)).find((e) => e.type === "update_message")!;
    expect(m2Event.flags).toEqual(["read"]);

    // guest: cannot read the destination: rows and access gone, delete_message.
    expect((await getUserMessages(org.stack.deps, guest.id, [ids[1]!, ids[2]!])).size).toBe(0);
    const guestEvents = await marks.since(guest);
    expect(guestEvents.filter((e) => e.type === "update_message")).toEqual([]);
    expect(guestEvents.filter((e) => e.type === "delete_message")).toEqual([
      { type: "delete_message", message_ids: [ids[1], ids[2]], message_type: "stream", stream_id: a, topic: "t" },
    ]);
    expect((await org.api(guest, "GET", `/messages/${ids[1]}`, {})).body).toEqual({
      result: "error",
      msg: "Invalid message(s)",
      code: "BAD_REQUEST",
    });
    expect((await getMessageRecipients(org.stack.deps, ids[1]!)).userIds).not.toContain(guest.id);
  });

  it("change_all with a topic change to a private stream, without notices: non-subscribers lose access", async () => {
    const { member, member2, moderator } = org.users;
    const a = (await createStream(org, member, "mv-c", { principals: [member.id, member2.id, moderator.id] })).stream_id;
    const p = await createStream(org, moderator, "mv-private", { invite_only: true, principals: [moderator.id, member.id] });
    const ids = [await send(member, "mv-c", "old", "x0"), await send(member, "mv-c", "old", "x1")];
    const marks = await markEvents(org, [member, member2]);
    const res = await org.api(moderator, "PATCH", `/messages/${ids[1]}`, {
      stream_id: p.stream_id,
      topic: "new",
      propagate_mode: "change_all",
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await topicMessages(member, "mv-private", "new")).map((m) => m.id)).toEqual(ids);
    expect(await topicMessages(member, "mv-c", "old")).toEqual([]);
    const stored = (await messageById(org.stack.deps, ids[0]!))!;
    expect(stored.edit_history[0]).toEqual({
      user_id: moderator.id,
      timestamp: stored.last_edit_timestamp,
      prev_stream: a,
      stream: p.stream_id,
      prev_topic: "old",
      topic: "new",
    });
    const ev = (await marks.since(member)).find((e) => e.type === "update_message")!;
    validateEvent({ ...ev, id: 0 });
    expect(ev).toMatchObject({ orig_subject: "old", subject: "new", new_stream_id: p.stream_id, propagate_mode: "change_all" });

    for (const id of ids) {
      expect((await org.api(member2, "GET", `/messages/${id}`, {})).body).toEqual({
        result: "error",
        msg: "Invalid message(s)",
        code: "BAD_REQUEST",
      });
    }
    const m2 = await marks.since(member2);
    expect(m2.filter((e) => e.type === "update_message")).toEqual([]);
    expect(m2.filter((e) => e.type === "delete_message")).toEqual([
      { type: "delete_message", message_ids: ids, message_type: "stream", stream_id: a, topic: "old" },
    ]);
  });

  it("change_one with a topic change notifies only the new thread when asked", async () => {
    const { member, moderator } = org.users;
    await createStream(org, member, "mv-d", { principals: [member.id, moderator.id] });
    const e = await createStream(org, moderator, "mv-e", { principals: [moderator.id, member.id] });
    const ids = [await send(member, "mv-d", "t", "y0"), await send(member, "mv-d", "t", "y1")];
    const res = await org.api(moderator, "PATCH", `/messages/${ids[0]}`, {
      stream_id: e.stream_id,
      topic: "u",
      send_notification_to_old_thread: false,
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await topicMessages(member, "mv-d", "t")).map((m) => m.content)).toEqual(["y1"]);
    expect((await topicMessages(member, "mv-e", "u")).map((m) => m.content)).toEqual([
      "y0",
      `A message was moved here from #**mv-d>t** by ${mention(moderator)}.`,
    ]);
  });

  it("refuses members (policy: moderators), guests, and destinations the mover cannot access; nothing changes", async () => {
    const { member, moderator, guest, admin } = org.users;
    const src = (await createStream(org, member, "mv-src", { principals: [member.id, moderator.id, guest.id] })).stream_id;
    const pub = await createStream(org, member, "mv-dst", { principals: [member.id, guest.id] });
    const secret = await createStream(org, admin, "mv-secret", { invite_only: true });
    const id = await send(member, "mv-src", "t", "stay");
    const cases: [TestUser, Record<string, unknown>, string][] = [
      [member, { stream_id: pub.stream_id }, "You don't have permission to move this message"],
      [guest, { stream_id: pub.stream_id }, "You don't have permission to move this message"],
      [moderator, { stream_id: secret.stream_id }, "Invalid channel ID"],
      [moderator, { stream_id: 987654 }, "Invalid channel ID"],
      [moderator, { stream_id: pub.stream_id, content: "x" }, "Cannot change message content while changing channel"],
    ];
    for (const [user, params, msg] of cases) {
      const res = await org.api(user, "PATCH", `/messages/${id}`, params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
    }
    const stored = (await messageById(org.stack.deps, id))!;
    expect(stored.stream_id).toBe(src);
    expect(stored.edit_history).toEqual([]);
  });

  it("a move of more than 400 messages finishes through move_messages jobs with the same end state", async () => {
    const { member, member2, moderator } = org.users;
    const deps = org.stack.deps;
    const a = (await createStream(org, member, "mv-big-a", { principals: [member.id, member2.id, moderator.id] })).stream_id;
    const b = await createStream(org, moderator, "mv-big-b", { invite_only: true, principals: [moderator.id, member.id] });
    const first = await send(member, "mv-big-a", "bulk", "seed");
    const template = (await messageById(deps, first))!;
    const count = 449;
    const start = await allocateIds(deps, "message", count);
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < count; i++) {
      const id = start + i;
      items.push(messageItem({ ...template, id, content: `bulk ${i}` }));
      for (const u of [member.id, member2.id]) {
        items.push(userMessageItem({ user_id: u, message_id: id, recipient_id: template.recipient_id, is_private: false, flags: [] }));
      }
      items.push(...sendRecipientsItems(id, [member.id, member2.id]));
    }
    await batchWrite(deps, items);
    const all = [first, ...Array.from({ length: count }, (_, i) => start + i)];
    const marks = await markEvents(org, [member, member2]);

    const res = await org.api(moderator, "PATCH", `/messages/${first}`, {
      stream_id: b.stream_id,
      propagate_mode: "change_all",
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    await org.stack.drainDeferredWork();

    expect((await topicMessages(member, "mv-big-b", "bulk")).map((m) => m.id)).toEqual(all);
    expect(await topicMessages(member, "mv-big-a", "bulk")).toEqual([]);
    const memberRows = await getUserMessages(deps, member.id, all);
    // Rows of stream messages name no stream: a move leaves the rows of those who keep the messages untouched.
    expect([...memberRows.values()].filter((r) => r.recipient_id !== undefined)).toEqual([]);
    expect(memberRows.size).toBe(all.length);
    expect((await getUserMessages(deps, member2.id, all)).size).toBe(0);
    const last = (await messageById(deps, all.at(-1)!))!;
    expect(last.edit_history[0]).toMatchObject({ prev_stream: a, stream: b.stream_id });

    const updates = (await marks.since(member)).filter((e) => e.type === "update_message");
    expect(updates).toHaveLength(1);
    expect(updates[0]!.message_ids).toEqual(all);
    const deleted = (await marks.since(member2)).filter((e) => e.type === "delete_message");
    expect(deleted.flatMap((e) => e.message_ids as number[]).sort((x, y) => x - y)).toEqual(all);
  }, 120_000); // 450 messages are seeded and moved through the queue: slow on a loaded 2-core machine.
});

describe("delete", () => {
  it("bot owners may delete their bots' messages only where delete_own_message_policy lets them", async () => {
    const { member, member2, bot } = org.users;
    await createStream(org, member, "del-bot", { principals: [member.id, member2.id, bot.id] });
    const id = await send(bot, "del-bot", "b", "beep");
    const denied = { result: "error", msg: "You don't have permission to delete this message", code: "BAD_REQUEST" };
    // Default policy (2): administrators only.
    expect((await org.api(member, "DELETE", `/messages/${id}`, {})).body).toEqual(denied);
    await withRealmSettings(org, { delete_own_message_policy: 5 }, async () => {
      expect((await org.api(member2, "DELETE", `/messages/${id}`, {})).body).toEqual(denied);
      expect(await messageById(org.stack.deps, id)).toBeDefined();
      const marks = await markEvents(org, [member2]);
      expect((await org.api(member, "DELETE", `/messages/${id}`, {})).body).toEqual({ result: "success", msg: "" });
      expect((await marks.since(member2)).filter((e) => e.type === "delete_message")).toHaveLength(1);
    });
    expect(await messageById(org.stack.deps, id)).toBeUndefined();
    expect((await getUserMessages(org.stack.deps, bot.id, [id])).size).toBe(0);
  });
});

describe("edit history visibility", () => {
  it("drops edit_history where the realm disallows viewing it", async () => {
    const { member } = org.users;
    await createStream(org, member, "hist", {});
    const id = await send(member, "hist", "h", "v1");
    await org.api(member, "PATCH", `/messages/${id}`, { content: "v2" });
    expect((await org.api(member, "GET", `/messages/${id}`, {})).body.message.edit_history).toHaveLength(1);
    await withRealmSettings(org, { allow_edit_history: false }, async () => {
      const single = (await org.api(member, "GET", `/messages/${id}`, {})).body.message;
      expect(single.edit_history).toBeUndefined();
      expect(single.last_edit_timestamp).toBeTypeOf("number");
      const listed = (await topicMessages(member, "hist", "h")).find((m) => m.id === id)!;
      expect(listed.edit_history).toBeUndefined();
    });
  });
});

describe("concurrent flag changes", () => {
  it("starring and reading the same rows at the same time loses neither", async () => {
    const { member, member2 } = org.users;
    await createStream(org, member, "race", { principals: [member.id, member2.id] });
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push(await send(member, "race", "r", `r${i}`));
    const flagsOf = (flag: string) => org.api(member2, "POST", "/messages/flags", { messages: ids, op: "add", flag });
    const results = await Promise.all([flagsOf("starred"), flagsOf("read"), flagsOf("collapsed")]);
    for (const r of results) expect(r.body.result).toBe("success");
    const rows = await getUserMessages(org.stack.deps, member2.id, ids);
    for (const id of ids) {
      expect([...rows.get(id)!.flags].sort()).toEqual(["collapsed", "read", "starred"]);
    }
    const starred = await org.api(member2, "GET", "/messages", {
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: "is", operand: "starred" }, { operator: "stream", operand: "race" }],
    });
    expect((starred.body.messages as { id: number }[]).map((m) => m.id)).toEqual(ids);
    const unread = await org.api(member2, "GET", "/messages", {
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: "is", operand: "unread" }, { operator: "stream", operand: "race" }],
    });
    expect(unread.body.messages).toEqual([]);
  });
});

describe("concurrent edits, moves, reactions and deletes", () => {
  it("reactions added while the message is edited and its topic moved are all kept", async () => {
    const { member, member2, moderator } = org.users;
    await createStream(org, member, "race-edit", { principals: [member.id, member2.id, moderator.id] });
    const id = await send(member, "race-edit", "before", "first words");
    const emoji = ["tada", "heart", "rocket", "fire", "star", "eyes", "smile", "octopus"];
    const [edit, move, ...reactions] = await Promise.all([
      org.api(member, "PATCH", `/messages/${id}`, { content: "second words" }),
      org.api(moderator, "PATCH", `/messages/${id}`, { topic: "after", propagate_mode: "change_one" }),
      ...emoji.map((e) => org.api(member2, "POST", `/messages/${id}/reactions`, { emoji_name: e })),
    ]);
    expect(edit!.body).toMatchObject({ result: "success" });
    expect(move!.body).toMatchObject({ result: "success" });
    for (const r of reactions) expect(r.body).toMatchObject({ result: "success" });

    const stored = (await messageById(org.stack.deps, id))!;
    expect(stored.content).toBe("second words");
    expect(stored.topic).toBe("after");
    expect(messageReactions(stored).map((r) => r.emoji_name).sort()).toEqual([...emoji].sort());
    // Both edits are in the history, each against the state the other left.
    expect(stored.edit_history).toHaveLength(2);
    const contentEntry = stored.edit_history.find((e) => "prev_content" in e)!;
    const topicEntry = stored.edit_history.find((e) => "prev_topic" in e)!;
    expect(contentEntry.prev_content).toBe("first words");
    expect(topicEntry).toMatchObject({ prev_topic: "before", topic: "after" });
  });

  it("two content edits at once both land, the later one's history pointing at the earlier one's text", async () => {
    const { member } = org.users;
    await createStream(org, member, "race-edit-2", {});
    const id = await send(member, "race-edit-2", "t", "v0");
    const results = await Promise.all(["v1", "v2", "v3"].map((c) => org.api(member, "PATCH", `/messages/${id}`, { content: c })));
    for (const r of results) expect(r.body).toMatchObject({ result: "success" });
    const stored = (await messageById(org.stack.deps, id))!;
    const history = stored.edit_history as { prev_content: string }[];
    expect(history).toHaveLength(3);
    // Most recent first: each entry's prev_content is what the next-older edit wrote.
    const written = [stored.content, ...history.map((h) => h.prev_content)];
    expect(written[3]).toBe("v0");
    expect(new Set(written.slice(0, 3))).toEqual(new Set(["v1", "v2", "v3"]));
  });

  it("an edit racing a delete never brings the message back", async () => {
    const { member, admin } = org.users;
    await createStream(org, member, "race-del", {});
    for (let i = 0; i < 5; i++) {
      const id = await send(member, "race-del", "t", `doomed ${i}`);
      const [edit, del] = await Promise.all([
        org.api(member, "PATCH", `/messages/${id}`, { content: `edited ${i}`, topic: "moved" }),
        org.api(admin, "DELETE", `/messages/${id}`, {}),
      ]);
      expect(del.body).toMatchObject({ result: "success" });
      // The edit either won the race or found the message gone.
      if (edit.body.result !== "success") expect(edit.body).toMatchObject({ result: "error", msg: "Invalid message(s)" });
      expect(await messageById(org.stack.deps, id)).toBeUndefined();
    }
  });
});

describe("a second client's long-poll", () => {
  let q: EventQueueClient;
  beforeAll(async () => {
    const { member, member2 } = org.users;
    await createStream(org, member, "poll", { principals: [member.id, member2.id] });
    q = new EventQueueClient({ baseUrl: org.url, email: member2.email, apiKey: member2.apiKey, onEvent: validateEvent });
    await q.register({ event_types: ["update_message", "reaction", "update_message_flags"] });
  });

  it("wakes up with update_message, reaction and update_message_flags events", async () => {
    const { member, member2 } = org.users;
    const id = await send(member, "poll", "p", "before");

    let pending = q.waitFor((e) => e.type === "update_message");
    await org.api(member, "PATCH", `/messages/${id}`, { content: "after" });
    expect(await pending).toMatchObject({ type: "update_message", message_id: id, content: "after", user_id: member.id });

    pending = q.waitFor((e) => e.type === "reaction");
    await org.api(member, "POST", `/messages/${id}/reactions`, { emoji_name: "octopus" });
    expect(await pending).toMatchObject({
      type: "reaction",
      op: "add",
      message_id: id,
      emoji_name: "octopus",
      user_id: member.id,
      user: { user_id: member.id, email: member.email, full_name: member.fullName },
    });

    // The same user's other client changes a flag.
    pending = q.waitFor((e) => e.type === "update_message_flags");
    await org.api(member2, "POST", "/messages/flags", { messages: [id], op: "add", flag: "starred" });
    expect(await pending).toMatchObject({ type: "update_message_flags", op: "add", flag: "starred", messages: [id], all: false });
  });
});
