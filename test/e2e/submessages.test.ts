import { beforeAll, describe, expect, it } from "vitest";
import { messageById } from "../../shared/data/messages.js";
import { MAX_SUBMESSAGES } from "../../shared/data/submessages.js";
import type { EventQueueClient } from "../support/event-queue-client.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, queueClient } from "./streams-helpers.js";

const org = useTestOrg();

async function send(user: TestUser, params: Record<string, unknown>): Promise<number> {
  const res = await org.api(user, "POST", "/messages", params);
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

const toStream = (to: string, content: string) => ({ type: "stream", to, topic: "widgets", content });

async function submessage(user: TestUser, messageId: number, content: unknown) {
  return org.api(user, "POST", "/submessage", {
    message_id: messageId,
    msg_type: "widget",
    content: typeof content === "string" ? content : JSON.stringify(content),
  });
}

async function queueOf(user: TestUser): Promise<EventQueueClient> {
  const q = queueClient(org, user);
  await q.register({ event_types: ["message", "submessage"] });
  return q;
}

/** Polls until `count` `submessage` events came (every event is schema-checked by the client). */
async function submessageEvents(q: EventQueueClient, count: number): Promise<Record<string, any>[]> {
  const seen: Record<string, any>[] = [];
  for (let i = 0; i < 10 && seen.length < count; i++) {
    seen.push(...(await q.poll({ dontBlock: seen.length > 0 })).filter((e) => e.type === "submessage"));
  }
  return seen;
}

beforeAll(async () => {
  const { member, member2 } = org.users;
  await createStream(org, member, "polls", { principals: [member.id, member2.id] });
  await createStream(org, member, "secret-polls", { invite_only: true });
});

describe("/poll messages", () => {
  it("are sent with Zulip's widget submessage, in the message event and every read", async () => {
    const { member, member2 } = org.users;
    const q2 = await queueOf(member2);
    const id = await send(member, toStream("polls", "/poll Lunch?\nPizza\n- Sushi\n\n"));
    const event = await q2.waitFor((e) => e.type === "message" && e.message.id === id);
    const widget = {
      msg_type: "widget",
      content: '{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Sushi"]}}',
      message_id: id,
      sender_id: member.id,
      id: expect.any(Number),
    };
    expect(event.message.submessages).toEqual([widget]);
    const one = await org.api(member2, "GET", `/messages/${id}`, {});
    // The content renders as any other message (here a paragraph and a list): the apps draw the widget over it.
    const rendered = await org.api(member2, "POST", "/messages/render", { content: "/poll Lunch?\nPizza\n- Sushi" });
    expect(one.body.message.content).toBe(rendered.body.rendered);
    expect(one.body.message.content).toMatch(/^<p>\/poll Lunch\?<br>\nPizza<\/p>\n<ul>/);
    expect(one.body.message.submessages).toEqual([widget]);
    expect(one.body.message.submessages[0].id).toBe(event.message.submessages[0].id);
  });

  it("take votes and new options from two users; both clients get each submessage event; GET /messages shows them in order", async () => {
    const { member, member2, admin } = org.users;
    const [q1, q2, qAdmin] = await Promise.all([queueOf(member), queueOf(member2), queueOf(admin)]);
    const id = await send(member, toStream("polls", "/poll Colour?\nRed\nBlue"));
    const posts: [TestUser, Record<string, unknown>][] = [
      [member2, { type: "vote", key: "canned,0", vote: 1 }],
      [member, { type: "new_option", idx: 1, option: "Green" }],
      [member2, { type: "new_option", idx: 1, option: "Teal" }],
      [member2, { type: "vote", key: `${member.id},1`, vote: 1 }],
      [member2, { type: "vote", key: "canned,0", vote: -1 }],
      [member, { type: "question", question: "Favourite colour?" }],
      // A public stream's reader without a row may vote too, and hears of it.
      [admin, { type: "vote", key: "canned,1", vote: 1 }],
    ];
    for (const [user, content] of posts) {
      const res = await submessage(user, id, content);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: "success", msg: "" });
    }
    const expected = posts.map(([user, content]) => ({
      type: "submessage",
      msg_type: "widget",
      content: JSON.stringify(content),
      message_id: id,
      sender_id: user.id,
      submessage_id: expect.any(Number),
      id: expect.any(Number),
    }));
    for (const q of [q1, q2]) expect(await submessageEvents(q, posts.length)).toEqual(expected);
    expect(await submessageEvents(qAdmin, 1)).toEqual([expected.at(-1)]);

    const page = await org.api(member2, "GET", "/messages", {
      anchor: id,
      num_before: 0,
      num_after: 0,
      narrow: JSON.stringify([{ operator: "channel", operand: "polls" }]),
    });
    const [message] = page.body.messages;
    expect(message.id).toBe(id);
    expect(message.submessages.map((s: any) => [s.sender_id, s.msg_type, s.content])).toEqual([
      [member.id, "widget", '{"widget_type": "poll", "extra_data": {"question": "Colour?", "options": ["Red", "Blue"]}}'],
      ...posts.map(([user, content]) => [user.id, "widget", JSON.stringify(content)]),
    ]);
    const ids = message.submessages.map((s: any) => s.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("work in direct messages: the other participant votes", async () => {
    const { member, member2 } = org.users;
    const q1 = await queueOf(member);
    const id = await send(member, { type: "direct", to: JSON.stringify([member2.id]), content: "/poll Meet?" });
    expect((await submessage(member2, id, { type: "vote", key: "canned,0", vote: 1 })).body.result).toBe("success");
    expect(await submessageEvents(q1, 1)).toMatchObject([{ message_id: id, sender_id: member2.id }]);
  });
});

describe("/todo messages", () => {
  it("carry the task list; others add and strike tasks, and everyone hears", async () => {
    const { member, member2 } = org.users;
    const [q1, q2] = await Promise.all([queueOf(member), queueOf(member2)]);
    const id = await send(member, toStream("polls", "/todo Chores\nDishes: tonight, please\n* Laundry"));
    const get = await org.api(member2, "GET", `/messages/${id}`, {});
    expect(get.body.message.submessages).toEqual([
      {
        msg_type: "widget",
        content:
          '{"widget_type": "todo", "extra_data": {"task_list_title": "Chores", "tasks": [{"task": "Dishes", "desc": "tonight, please"}, {"task": "Laundry", "desc": ""}]}}',
        message_id: id,
        sender_id: member.id,
        id: expect.any(Number),
      },
    ]);
    const posts: [TestUser, Record<string, unknown>][] = [
      [member2, { type: "new_task", key: 2, task: "Vacuum", desc: "", completed: false }],
      [member, { type: "strike", key: "0,canned" }],
      [member2, { type: "strike", key: `2,${member2.id}` }],
      [member, { type: "new_task_list_title", title: "Weekend chores" }],
    ];
    for (const [user, content] of posts) expect((await submessage(user, id, content)).body).toEqual({ result: "success", msg: "" });
    for (const q of [q1, q2]) {
      expect((await submessageEvents(q, posts.length)).map((e) => [e.sender_id, JSON.parse(e.content)])).toEqual(
        posts.map(([user, content]) => [user.id, content]),
      );
    }
  });
});

describe("POST /submessage refusals", () => {
  it("answers Zulip's errors and changes nothing", async () => {
    const { member, member2, guest } = org.users;
    const poll = await send(member, toStream("polls", "/poll Q\nA"));
    const todo = await send(member, toStream("polls", "/todo\nT"));
    const secret = await send(member, toStream("secret-polls", "/poll Secret?\nYes"));
    const plain = await send(member, toStream("polls", "just words"));
    const vote = { type: "vote", key: "canned,0", vote: 1 };
    const cases: [TestUser, number, unknown, string][] = [
      [member, 999_999_999, vote, "Invalid message(s)"],
      [guest, poll, vote, "Invalid message(s)"],
      [member2, secret, vote, "Invalid message(s)"],
      [member2, plain, {}, "You cannot attach a submessage to this message."],
      [member2, poll, "not json", "Invalid json for submessage"],
      [member2, poll, { type: "bogus" }, "Unknown type for poll data: bogus"],
      [member2, poll, { type: "vote", key: "canned,0", vote: 2 }, 'Invalid poll data["vote"]'],
      [member2, poll, { type: "vote", key: "canned,0" }, "vote key is missing from poll data"],
      [member2, poll, [1], "poll data is not a dict"],
      [member2, poll, { type: "question", question: "Mine now?" }, "You can't edit a question unless you are the author."],
      [member2, poll, { type: "new_option", idx: 1001, option: "x" }, 'poll data["idx"] is too large'],
      [member2, todo, { type: "new_task", key: 1, task: "t", desc: "", completed: "no" }, 'todo data["completed"] is not a boolean'],
      [member2, todo, { type: "new_task_list_title", title: "Mine" }, "You can't edit the task list title unless you are the author."],
      [member2, todo, { type: "strike", key: "0,canned", extra: true }, "Unexpected arguments: extra"],
      [member2, poll, { type: "new_option", idx: 1, option: "x".repeat(10_000) }, "content is too long (limit: 10000 characters)"],
    ];
    for (const [user, messageId, content, msg] of cases) {
      const res = await submessage(user, messageId, content);
      expect(res.status, `${user.email} ${msg}`).toBe(400);
      expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
    }
    const missing = await org.api(member2, "POST", "/submessage", { message_id: poll, msg_type: "widget" });
    expect(missing.body).toEqual({ result: "error", msg: "Missing 'content' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "content" });
    const badId = await org.api(member2, "POST", "/submessage", { message_id: "abc", msg_type: "widget", content: "{}" });
    expect(badId.status).toBe(400);
    expect(badId.body.result).toBe("error");
    for (const id of [poll, todo, secret, plain]) expect((await messageById(org.stack.deps, id))!.submessages.length).toBe(id === plain ? 0 : 1);
  });

  it("the sender may attach to a plain message (Zulip's rule), after which others may too", async () => {
    const { member, member2 } = org.users;
    const plain = await send(member, toStream("polls", "no widget here"));
    expect((await submessage(member, plain, { anything: 1 })).body.result).toBe("success");
    expect((await submessage(member2, plain, "[1, 2]")).body.result).toBe("success");
    const get = await org.api(member2, "GET", `/messages/${plain}`, {});
    expect(get.body.message.submessages.map((s: any) => [s.sender_id, s.content])).toEqual([
      [member.id, '{"anything":1}'],
      [member2.id, "[1, 2]"],
    ]);
  });

  it(`stops a message at ${MAX_SUBMESSAGES} submessages with a clear error`, async () => {
    const { member } = org.users;
    const id = await send(member, toStream("polls", "/poll Busy?\nYes"));
    // Fill the item directly to just below the bound, then post through the API.
    const stored = (await messageById(org.stack.deps, id))!;
    const { UpdateCommand } = await import("@aws-sdk/lib-dynamodb");
    const { keys } = await import("../../shared/data/keys.js");
    const filler = Array.from({ length: MAX_SUBMESSAGES - 2 }, (_, i) => ({
      msg_type: "widget",
      content: '{"type":"vote","key":"canned,0","vote":1}',
      message_id: id,
      sender_id: member.id,
      id: 1_000_000_000 + i,
    }));
    await org.stack.deps.db.send(
      new UpdateCommand({
        TableName: org.stack.deps.table,
        Key: keys.message(id),
        UpdateExpression: "SET submessages = list_append(submessages, :f)",
        ExpressionAttributeValues: { ":f": filler },
      }),
    );
    expect(stored.submessages).toHaveLength(1);
    expect((await submessage(member, id, { type: "vote", key: "canned,0", vote: 1 })).body.result).toBe("success");
    const full = await submessage(member, id, { type: "vote", key: "canned,0", vote: -1 });
    expect(full.body).toEqual({
      result: "error",
      msg: "This message has too many submessages (limit: 2000, or 200000 bytes in all).",
      code: "BAD_REQUEST",
    });
    expect((await messageById(org.stack.deps, id))!.submessages).toHaveLength(MAX_SUBMESSAGES);
  });
});
