import { beforeAll, describe, expect, it } from "vitest";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, markEvents, subscribeTo } from "./streams-helpers.js";

const org = useTestOrg();

let streamId = 0;
const ids: number[] = [];
let dmId = 0;

async function send(user: TestUser, to: string, topic: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function flagsOf(user: TestUser, messageId: number): Promise<string[] | undefined> {
  return (await getUserMessages(org.stack.deps, user.id, [messageId])).get(messageId)?.flags;
}

beforeAll(async () => {
  const { member, member2 } = org.users;
  streamId = (await createStream(org, member, "flags-stream", { principals: [member.id, member2.id] })).stream_id;
  for (let i = 0; i < 4; i++) ids.push(await send(member, "flags-stream", `t${i % 2}`, `hello ${i}`));
  dmId = (await org.api(member, "POST", "/messages", { type: "private", to: [member2.id], content: "psst" })).body.id;
});

describe("POST /messages/flags", () => {
  it("read: unread → read → unread, answering the IDs changed, with events", async () => {
    const { member2 } = org.users;
    expect(await flagsOf(member2, ids[0]!)).not.toContain("read");
    const marks = await markEvents(org, [member2]);
    const res = await org.api(member2, "POST", "/messages/flags", { messages: [ids[0], ids[1]], op: "add", flag: "read" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", messages: [ids[0], ids[1]] });
    expect(await flagsOf(member2, ids[0]!)).toContain("read");
    // Again: nothing changes.
    const again = await org.api(member2, "POST", "/messages/flags", { messages: [ids[0]], op: "add", flag: "read" });
    expect(again.body.messages).toEqual([]);

    const unread = await org.api(member2, "POST", "/messages/flags", { messages: [ids[0], dmId], op: "remove", flag: "read" });
    expect(unread.body.messages).toEqual([ids[0]]); // the DM was unread already
    expect(await flagsOf(member2, ids[0]!)).not.toContain("read");

    const events = (await marks.since(member2)).filter((e) => e.type === "update_message_flags");
    expect(events.length).toBe(3);
    for (const e of events) validateEvent({ ...e, id: 0 });
    expect(events[0]).toMatchObject({ op: "add", operation: "add", flag: "read", messages: [ids[0], ids[1]], all: false });
    expect(events[2]).toMatchObject({
      op: "remove",
      flag: "read",
      messages: [ids[0]],
      message_details: { [String(ids[0])]: { type: "stream", stream_id: streamId, topic: "t0", unmuted_stream_msg: true } },
    });
  });

  it("starred and collapsed set and unset", async () => {
    const { member2 } = org.users;
    for (const flag of ["starred", "collapsed"]) {
      const add = await org.api(member2, "POST", "/messages/flags", { messages: [ids[2]], op: "add", flag });
      expect(add.body.messages).toEqual([ids[2]]);
      expect(await flagsOf(member2, ids[2]!)).toContain(flag);
      const remove = await org.api(member2, "POST", "/messages/flags", { messages: [ids[2]], op: "remove", flag });
      expect(remove.body.messages).toEqual([ids[2]]);
      expect(await flagsOf(member2, ids[2]!)).not.toContain(flag);
    }
  });

  it("is:starred follows the flag", async () => {
    const { member2 } = org.users;
    await org.api(member2, "POST", "/messages/flags", { messages: [ids[3]], op: "add", flag: "starred" });
    const res = await org.api(member2, "GET", "/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["is", "starred"]] });
    expect((res.body.messages as { id: number }[]).map((m) => m.id)).toEqual([ids[3]]);
  });

  it("refuses flags users cannot change, bad operations and invisible messages", async () => {
    const { member2, guest } = org.users;
    const cases: [Record<string, unknown>, string][] = [
      [{ messages: [ids[0]], op: "add", flag: "mentioned" }, "Flag not editable: 'mentioned'"],
      [{ messages: [ids[0]], op: "add", flag: "historical" }, "Flag not editable: 'historical'"],
      [{ messages: [ids[0]], op: "add", flag: "bogus" }, "Invalid flag: 'bogus'"],
      [{ messages: [ids[0]], op: "toggle", flag: "read" }, "Invalid message flag operation: 'toggle'"],
      [{ messages: [999999], op: "add", flag: "read" }, "Invalid message(s)"],
    ];
    for (const [params, msg] of cases) {
      const res = await org.api(member2, "POST", "/messages/flags", params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
    }
    // A guest cannot flag a public stream message they did not receive.
    const res = await org.api(guest, "POST", "/messages/flags", { messages: [ids[0]], op: "add", flag: "starred" });
    expect(res.body).toMatchObject({ result: "error", msg: "Invalid message(s)" });
    expect(await flagsOf(guest, ids[0]!)).toBeUndefined();
    const missing = await org.api(member2, "POST", "/messages/flags", { op: "add", flag: "read" });
    expect(missing.body).toMatchObject({ code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'messages' argument" });
  });

  it("starring a public stream message never received creates a historical row", async () => {
    const { admin } = org.users;
    expect(await flagsOf(admin, ids[1]!)).toBeUndefined();
    const res = await org.api(admin, "POST", "/messages/flags", { messages: [ids[1]], op: "add", flag: "starred" });
    expect(res.body.messages).toEqual([ids[1]]);
    expect((await flagsOf(admin, ids[1]!))!.sort()).toEqual(["historical", "read", "starred"]);
  });

  it("removing read ignores messages of streams the user is not subscribed to", async () => {
    const { admin } = org.users;
    const res = await org.api(admin, "POST", "/messages/flags", { messages: [ids[1]], op: "remove", flag: "read" });
    expect(res.body).toMatchObject({ result: "success", messages: [] });
    expect(await flagsOf(admin, ids[1]!)).toContain("read");
  });
});

describe("POST /messages/flags/narrow", () => {
  it("marks a narrow's range and reports counts", async () => {
    const { member2 } = org.users;
    await org.api(member2, "POST", "/messages/flags", { messages: ids, op: "remove", flag: "read" });
    const res = await org.api(member2, "POST", "/messages/flags/narrow", {
      anchor: "oldest",
      num_before: 0,
      num_after: 10,
      narrow: [{ operator: "stream", operand: "flags-stream" }, { operator: "topic", operand: "t0" }],
      op: "add",
      flag: "read",
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      processed_count: 2,
      updated_count: 2,
      first_processed_id: ids[0],
      last_processed_id: ids[2],
      found_oldest: true,
      found_newest: true,
    });
    expect(await flagsOf(member2, ids[0]!)).toContain("read");
    expect(await flagsOf(member2, ids[1]!)).not.toContain("read");
  });

  it("an empty range answers nulls", async () => {
    const res = await org.api(org.users.member2, "POST", "/messages/flags/narrow", {
      anchor: "newest",
      num_before: 0,
      num_after: 0,
      include_anchor: false,
      narrow: [],
      op: "add",
      flag: "starred",
    });
    expect(res.body).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null });
  });
});

describe("mark as read", () => {
  it("mark_topic_as_read, mark_stream_as_read and mark_all_as_read", async () => {
    const { member2 } = org.users;
    await org.api(member2, "POST", "/messages/flags", { messages: [...ids, dmId], op: "remove", flag: "read" });

    const topic = await org.api(member2, "POST", "/mark_topic_as_read", { stream_id: streamId, topic_name: "T1" });
    expect(topic.body).toEqual({ result: "success", msg: "" });
    expect(await flagsOf(member2, ids[1]!)).toContain("read");
    expect(await flagsOf(member2, ids[0]!)).not.toContain("read");

    const noTopic = await org.api(member2, "POST", "/mark_topic_as_read", { stream_id: streamId, topic_name: "nope" });
    expect(noTopic.body).toEqual({ result: "error", msg: "No such topic 'nope'", code: "BAD_REQUEST" });

    const stream = await org.api(member2, "POST", "/mark_stream_as_read", { stream_id: streamId });
    expect(stream.body).toEqual({ result: "success", msg: "" });
    for (const id of ids) expect(await flagsOf(member2, id)).toContain("read");
    expect(await flagsOf(member2, dmId)).not.toContain("read");

    const bad = await org.api(member2, "POST", "/mark_stream_as_read", { stream_id: 99999 });
    expect(bad.body).toEqual({ result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });

    const marks = await markEvents(org, [member2]);
    const all = await org.api(member2, "POST", "/mark_all_as_read", {});
    expect(all.body).toEqual({ result: "success", msg: "", complete: true });
    expect(await flagsOf(member2, dmId)).toContain("read");
    const events = await marks.since(member2);
    expect(events).toEqual([{ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [], all: true }]);
    validateEvent({ ...events[0]!, id: 1 });
  });

  it("a private stream's messages are refused to non-subscribers", async () => {
    const { member, guest } = org.users;
    const priv = await createStream(org, member, "flags-private", { invite_only: true });
    const res = await org.api(guest, "POST", "/mark_stream_as_read", { stream_id: priv.stream_id });
    expect(res.body).toMatchObject({ result: "error", msg: "Invalid channel ID" });
  });

  // 2,500 rows and their read-receipt index entries on DynamoDB Local take minutes on a loaded machine: a long timeout, no timing assertion.
  it("thousands of unread messages finish through deferred work with the same end state", async () => {
    const user = await org.createUser("bulkreader");
    const sender = org.users.member;
    await subscribeTo(org, sender, ["flags-stream"], { principals: [user.id] });
    // Rows written directly: 2,500 unread messages for one user.
    const { putUserMessages } = await import("../../shared/data/user-messages.js");
    const stream = await import("./streams-helpers.js").then((m) => m.streamByName(org, "flags-stream"));
    const base = 5_000_000;
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      user_id: user.id,
      message_id: base + i,
      recipient_id: stream!.recipient_id,
      is_private: false,
      flags: [] as string[],
    }));
    await putUserMessages(org.stack.deps, rows);
    const res = await org.api(user, "POST", "/mark_all_as_read", {});
    expect(res.body).toEqual({ result: "success", msg: "", complete: false });
    await org.stack.drainDeferredWork();
    const after = await getUserMessages(org.stack.deps, user.id, rows.map((r) => r.message_id));
    expect([...after.values()].every((r) => r.flags.includes("read"))).toBe(true);
    const { eventsOf } = await import("./streams-helpers.js");
    const flagEvents = (await eventsOf(org, user.id)).filter((e) => e.type === "update_message_flags");
    expect(flagEvents.at(-1)).toMatchObject({ all: true, messages: [] });
    const marked = flagEvents.filter((e) => !e.all).flatMap((e) => e.messages as number[]);
    expect(new Set(marked).size).toBe(2500);
  }, 240_000);
});
