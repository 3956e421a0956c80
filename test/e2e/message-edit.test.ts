import { beforeAll, describe, expect, it } from "vitest";
import { messageById } from "../../shared/data/messages.js";
import { RENDERED_VERSION } from "../../shared/markdown/render.js";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { systemClock } from "../../shared/deps.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, markEvents } from "./streams-helpers.js";

const org = useTestOrg();
let streamId = 0;

async function send(user: TestUser, topic: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: "edit-stream", topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function topicMessages(user: TestUser, topic: string) {
  const res = await org.api(user, "GET", "/messages", {
    anchor: "newest",
    num_before: 100,
    num_after: 0,
    narrow: [{ operator: "stream", operand: "edit-stream" }, { operator: "topic", operand: topic }],
    apply_markdown: false,
  });
  return res.body.messages as Record<string, any>[];
}

beforeAll(async () => {
  const { member, member2 } = org.users;
  streamId = (await createStream(org, member, "edit-stream", { principals: [member.id, member2.id] })).stream_id;
});

describe("PATCH /messages/{message_id}", () => {
  it("edits content: re-rendered, mentions recomputed, history and events", async () => {
    const { member, member2 } = org.users;
    const id = await send(member, "content", "first draft");
    const marks = await markEvents(org, [member, member2]);
    const res = await org.api(member, "PATCH", `/messages/${id}`, { content: `now with @**${member2.fullName}**` });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const stored = (await messageById(org.stack.deps, id))!;
    expect(stored.content).toBe(`now with @**${member2.fullName}**`);
    expect(stored.rendered_content).toContain("user-mention");
    expect(stored.edit_history).toEqual([
      {
        user_id: member.id,
        timestamp: stored.last_edit_timestamp,
        prev_content: "first draft",
        prev_rendered_content: "<p>first draft</p>",
        prev_rendered_content_version: RENDERED_VERSION,
      },
    ]);
    expect((await getUserMessages(org.stack.deps, member2.id, [id])).get(id)!.flags).toContain("mentioned");

    const events = (await marks.since(member2)).filter((e) => e.type === "update_message");
    expect(events).toHaveLength(1);
    validateEvent({ ...events[0]!, id: 0 });
    expect(events[0]).toMatchObject({
      user_id: member.id,
      message_id: id,
      message_ids: [id],
      orig_content: "first draft",
      content: `now with @**${member2.fullName}**`,
      stream_id: streamId,
      rendering_only: false,
    });
    expect(events[0]!.flags).toContain("mentioned");

    const history = await org.api(member2, "GET", `/messages/${id}/history`, {});
    expect(history.body.message_history).toHaveLength(2);
    expect(history.body.message_history[0]).toEqual({
      content: "first draft",
      rendered_content: "<p>first draft</p>",
      timestamp: stored.timestamp,
      topic: "content",
      stream: streamId,
      user_id: member.id,
    });
    expect(history.body.message_history[1].content_html_diff).toContain('<span class="highlight_text_deleted">first draft</span>');
    expect(history.body.message_history[1].content_html_diff).toContain('<span class="highlight_text_inserted">now with</span>');
    expect(history.body.message_history[1]).toMatchObject({
      content: `now with @**${member2.fullName}**`,
      prev_content: "first draft",
      topic: "content",
      user_id: member.id,
    });
  });

  it("refuses what Zulip refuses, changing nothing", async () => {
    const { member, member2 } = org.users;
    const id = await send(member, "refusals", "mine");
    const dm = (await org.api(member, "POST", "/messages", { type: "private", to: [member2.id], content: "dm" })).body.id;
    const cases: [TestUser, number, Record<string, unknown>, string][] = [
      [member2, id, { content: "hijack" }, "You don't have permission to edit this message"],
      [member, id, {}, "Nothing to change"],
      [member, id, { topic: " refusals " }, "Nothing to change"],
      [member, dm, { topic: "x" }, "Direct messages cannot have topics."],
      [member, dm, { stream_id: streamId }, "Direct messages cannot be moved to channels."],
      [member, id, { content: "x", propagate_mode: "change_all" }, "Invalid propagate_mode without topic edit"],
      [member, 999999, { content: "x" }, "Invalid message(s)"],
    ];
    for (const [user, target, params, msg] of cases) {
      const res = await org.api(user, "PATCH", `/messages/${target}`, params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
    }
    expect((await messageById(org.stack.deps, id))!.content).toBe("mine");
    expect((await messageById(org.stack.deps, id))!.edit_history).toEqual([]);
  });

  it("emptying a message stores (deleted), as Zulip clients expect", async () => {
    const { member } = org.users;
    const id = await send(member, "emptied", "soon gone");
    const res = await org.api(member, "PATCH", `/messages/${id}`, { content: "  " });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const stored = (await messageById(org.stack.deps, id))!;
    expect(stored.content).toBe("(deleted)");
    expect(stored.rendered_content).toBe("<p>(deleted)</p>");
    expect(stored.edit_history[0]).toMatchObject({ prev_content: "soon gone" });
  });

  it("propagate modes move one, later or all messages; notices as Zulip words them", async () => {
    const { member, member2 } = org.users;
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await send(member, "moving", `m${i}`));
    // change_one without notices
    let res = await org.api(member2, "PATCH", `/messages/${ids[0]}`, {
      topic: "one",
      propagate_mode: "change_one",
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await topicMessages(member, "one")).map((m) => m.id)).toEqual([ids[0]]);
    // change_later from the third
    res = await org.api(member2, "PATCH", `/messages/${ids[2]}`, {
      topic: "later",
      propagate_mode: "change_later",
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    expect((await topicMessages(member, "later")).map((m) => m.id)).toEqual([ids[2], ids[3]]);
    expect((await topicMessages(member, "moving")).map((m) => m.id)).toEqual([ids[1]]);
    // change_all with notices
    const marks = await markEvents(org, [member]);
    res = await org.api(member2, "PATCH", `/messages/${ids[2]}`, { topic: "all", propagate_mode: "change_all" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const moved = await topicMessages(member, "all");
    expect(moved.slice(0, 2).map((m) => m.id)).toEqual([ids[2], ids[3]]);
    expect(moved.at(-1)).toMatchObject({
      sender_full_name: "Notification Bot",
      content: `This topic was moved here from #**edit-stream>later** by @_**${member2.fullName}|${member2.id}**.`,
    });
    const old = await topicMessages(member, "later");
    expect(old.map((m) => m.content)).toEqual([
      `This topic was moved to #**edit-stream>all** by @_**${member2.fullName}|${member2.id}**.`,
    ]);
    const stored = (await messageById(org.stack.deps, ids[3]!))!;
    expect(stored.edit_history[0]).toEqual({ user_id: member2.id, timestamp: stored.last_edit_timestamp, prev_topic: "later", topic: "all" });
    const events = (await marks.since(member)).filter((e) => e.type === "update_message");
    expect(events).toHaveLength(1);
    validateEvent({ ...events[0]!, id: 0 });
    expect(events[0]).toMatchObject({ propagate_mode: "change_all", orig_subject: "later", subject: "all", message_ids: [ids[2], ids[3]] });
  });

  it("a link with the with operator still finds a message after its topic moved", async () => {
    const { member, member2 } = org.users;
    const id = await send(member, "link-before", "follow me");
    expect((await org.api(member, "PATCH", `/messages/${id}`, { topic: "link-after" })).body).toMatchObject({ result: "success" });
    const res = await org.api(member2, "GET", "/messages", {
      anchor: id,
      num_before: 0,
      num_after: 0,
      narrow: [
        { operator: "channel", operand: streamId },
        { operator: "topic", operand: "link-before" },
        { operator: "with", operand: id },
      ],
    });
    expect(res.body).toMatchObject({ result: "success", found_anchor: true });
    expect(res.body.messages.map((m: { id: number; subject: string }) => [m.id, m.subject])).toEqual([[id, "link-after"]]);
  });

  it("resolving and unresolving a topic", async () => {
    const { member, member2 } = org.users;
    const id = await send(member, "lunch", "where?");
    // Resolved 10 minutes ago (the clock lies in the past, see presence.test.ts): an
    // unresolve within Zulip's 60 s undo grace period would delete this notice instead.
    org.stack.deps.clock = { now: () => Date.now() - 600_000 };
    let res: Awaited<ReturnType<typeof org.api>>;
    try {
      res = await org.api(member2, "PATCH", `/messages/${id}`, { topic: "✔ lunch", propagate_mode: "change_all" });
    } finally {
      org.stack.deps.clock = systemClock;
    }
    expect(res.body).toEqual({ result: "success", msg: "" });
    let msgs = await topicMessages(member, "✔ lunch");
    expect(msgs.map((m) => m.content)).toEqual(["where?", `@_**${member2.fullName}|${member2.id}** has marked this topic as resolved.`]);
    const resolved = await org.api(member, "GET", "/messages", {
      anchor: "newest",
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: "is", operand: "resolved" }],
    });
    expect((resolved.body.messages as { id: number }[]).map((m) => m.id)).toContain(id);
    res = await org.api(member2, "PATCH", `/messages/${id}`, { topic: "lunch", propagate_mode: "change_all" });
    msgs = await topicMessages(member, "lunch");
    expect(msgs.at(-1)!.content).toBe(`@_**${member2.fullName}|${member2.id}** has marked this topic as unresolved.`);
  });

  it("resolving with change_one announces it too; with a content change in the same edit it is an ordinary move", async () => {
    const { member, member2 } = org.users;
    const first = await send(member, "dinner", "when?");
    const second = await send(member, "dinner", "and where?");
    const res = await org.api(member, "PATCH", `/messages/${second}`, { topic: "✔ dinner", propagate_mode: "change_one" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const msgs = await topicMessages(member2, "✔ dinner");
    expect(msgs.map((m) => m.content)).toEqual(["and where?", `@_**${member.fullName}|${member.id}** has marked this topic as resolved.`]);

    const third = await send(member, "supper", "soon");
    const both = await org.api(member, "PATCH", `/messages/${third}`, { topic: "✔ supper", content: "done" });
    expect(both.body).toEqual({ result: "success", msg: "" });
    // Not a resolution then, as for Zulip: an ordinary move with its notice.
    expect((await topicMessages(member2, "✔ supper")).map((m) => m.content)).toEqual([
      "done",
      `A message was moved here from #**edit-stream>supper** by @_**${member.fullName}|${member.id}**.`,
    ]);
    expect((await topicMessages(member2, "dinner")).map((m) => m.id)).toEqual([first]);
  });
});
