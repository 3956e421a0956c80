import { describe, expect, it } from "vitest";
import { validateEvent } from "../../shared/events/schemas.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

const err = (msg: string, status = 400, code = "BAD_REQUEST") => ({ status, body: { result: "error", msg, code } });
const ok = { status: 200, body: { result: "success", msg: "" } };
const gone = err("Scheduled message does not exist", 404);

/** A client whose every event is checked against its schema. */
function client(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

/** Status and body of a response, for one `toEqual`. */
async function answer(res: Promise<{ status: number; body: any }>): Promise<{ status: number; body: any }> {
  const { status, body } = await res;
  return { status, body };
}

/** A delivery time `hours` from now, in UNIX seconds. */
const later = (hours = 1) => Math.floor(Date.now() / 1000) + hours * 3600;

async function streamId(creator: TestUser, name: string, inviteOnly = false): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", {
    subscriptions: [{ name }],
    ...(inviteOnly ? { invite_only: true } : {}),
  });
  expect(res.body).toMatchObject({ result: "success" });
  return (await org.api(creator, "GET", "/get_stream_id", { stream: name })).body.stream_id as number;
}

const schedule = (user: TestUser, params: Record<string, unknown>) => org.api(user, "POST", "/scheduled_messages", params);
const list = async (user: TestUser) => (await org.api(user, "GET", "/scheduled_messages")).body.scheduled_messages as any[];

describe("POST /scheduled_messages", () => {
  it("schedules a channel message, tells only the sender's clients, and lists it", async () => {
    const me = await org.createUser("scheduler");
    const sid = await streamId(me, "sched-public");
    const mine = client(me);
    const theirs = client(org.users.member2);
    await mine.register({ event_types: ["scheduled_messages"] });
    await theirs.register({ event_types: ["scheduled_messages"] });
    const when = later();

    const res = await schedule(me, { type: "channel", to: sid, topic: "plans  ", content: "See you **soon**  ", scheduled_delivery_timestamp: when });

    expect(res.status).toBe(200);
    const id = res.body.scheduled_message_id as number;
    expect(res.body).toEqual({ result: "success", msg: "", scheduled_message_id: id });
    const expected = {
      scheduled_message_id: id,
      type: "stream",
      to: sid,
      topic: "plans",
      content: "See you **soon**",
      rendered_content: "<p>See you <strong>soon</strong></p>",
      scheduled_delivery_timestamp: when,
      failed: false,
    };
    const event = await mine.waitFor((e) => e.type === "scheduled_messages");
    expect(event).toEqual({ id: event.id, type: "scheduled_messages", op: "add", scheduled_messages: [expected] });
    expect((await theirs.poll({ dontBlock: true })).filter((e) => e.type === "scheduled_messages")).toEqual([]);
    expect(await answer(org.api(me, "GET", "/scheduled_messages"))).toEqual({ ...ok, body: { ...ok.body, scheduled_messages: [expected] } });
    expect(await list(org.users.member2)).toEqual([]);

    const registered = await client(me).register({ fetch_event_types: ["scheduled_messages"] });
    expect(registered.scheduled_messages).toEqual([expected]);
  });

  it("schedules direct messages: `to` the other participants, or the sender alone, without a topic; listed by time", async () => {
    const me = await org.createUser("dm-scheduler");
    const first = await schedule(me, {
      type: "direct",
      to: JSON.stringify([org.users.member2.id, org.users.member.id, me.id]),
      topic: "ignored",
      content: "group",
      scheduled_delivery_timestamp: later(2),
    });
    const second = await schedule(me, { type: "private", to: JSON.stringify([me.id]), content: "note", scheduled_delivery_timestamp: later(1) });
    expect([first.status, second.status]).toEqual([200, 200]);

    const rows = await list(me);
    expect(rows.map((r) => [r.scheduled_message_id, r.type, r.to, "topic" in r])).toEqual([
      [second.body.scheduled_message_id, "private", [me.id], false],
      [first.body.scheduled_message_id, "private", [org.users.member.id, org.users.member2.id].sort((a, b) => a - b), false],
    ]);
  });

  it("refuses what sending would refuse, and a time not in the future, storing nothing", async () => {
    const me = await org.createUser("bad-scheduler");
    const sid = await streamId(me, "sched-refusals");
    const privateSid = await streamId(org.users.admin, "sched-private", true);
    const base = { type: "stream", to: sid, topic: "t", content: "hi", scheduled_delivery_timestamp: later() };

    const cases: [Record<string, unknown>, { status: number; body: Record<string, unknown> }][] = [
      [{ ...base, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) - 5 }, err("Scheduled delivery time must be in the future.")],
      [{ ...base, type: "bogus" }, err("Invalid type")],
      [{ ...base, to: "[1, 2]" }, err("Invalid data type for channel ID")],
      [{ ...base, to: 999999 }, { status: 400, body: { result: "error", msg: "Channel with ID '999999' does not exist", code: "STREAM_DOES_NOT_EXIST", stream_id: 999999 } }],
      [{ ...base, to: privateSid }, err("Not authorized to send to channel 'sched-private'")],
      [{ ...base, content: "   " }, err("Message must not be empty")],
      [{ ...base, type: "direct", to: "7" }, err("Invalid data type for recipients")],
      [{ ...base, type: "direct", to: '["someone@example.com"]' }, err("Recipient list may only contain user IDs")],
      [{ ...base, type: "direct", to: "[999999]" }, err("Invalid user ID 999999")],
    ];
    for (const [params, expected] of cases) {
      expect(await answer(schedule(me, params)), JSON.stringify(params)).toEqual(expected);
    }
    expect(await list(me)).toEqual([]);
  });

  it("refuses a guest a channel they may not post in", async () => {
    const sid = await streamId(org.users.member, "sched-guest-no");
    expect(
      await answer(schedule(org.users.guest, { type: "stream", to: sid, topic: "t", content: "hi", scheduled_delivery_timestamp: later() })),
    ).toEqual(err("Not authorized to send to channel 'sched-guest-no'"));
    expect(await list(org.users.guest)).toEqual([]);
  });
});

describe("PATCH and DELETE /scheduled_messages/{id}", () => {
  it("edits the given fields, tells the sender's other clients, and keeps others' messages invisible", async () => {
    const me = await org.createUser("sched-editor");
    const sid = await streamId(me, "sched-edits");
    const created = await schedule(me, { type: "stream", to: sid, topic: "old", content: "v1", scheduled_delivery_timestamp: later() });
    const id = created.body.scheduled_message_id as number;
    const other = client(me);
    await other.register({ event_types: ["scheduled_messages"] });
    const when = later(3);

    expect(await answer(org.api(me, "PATCH", `/scheduled_messages/${id}`, { content: "v2", topic: "new", scheduled_delivery_timestamp: when }))).toEqual(ok);

    const expected = { scheduled_message_id: id, type: "stream", to: sid, topic: "new", content: "v2", rendered_content: "<p>v2</p>", scheduled_delivery_timestamp: when, failed: false };
    const event = await other.waitFor((e) => e.type === "scheduled_messages");
    expect(event).toEqual({ id: event.id, type: "scheduled_messages", op: "update", scheduled_message: expected });
    expect(await list(me)).toEqual([expected]);

    // To a direct message: the topic goes.
    expect(await answer(org.api(me, "PATCH", `/scheduled_messages/${id}`, { type: "direct", to: JSON.stringify([org.users.member.id]) }))).toEqual(ok);
    expect((await list(me))[0]).toEqual({ ...expected, type: "private", to: [org.users.member.id], topic: undefined });

    const path = `/scheduled_messages/${id}`;
    expect(await answer(org.api(me, "PATCH", path, {}))).toEqual(err("Nothing to change"));
    expect(await answer(org.api(me, "PATCH", path, { type: "stream" }))).toEqual(err("Recipient required when updating type of scheduled message."));
    expect(await answer(org.api(me, "PATCH", path, { type: "stream", to: sid }))).toEqual(err("Topic required when updating scheduled message type to stream."));
    expect(await answer(org.api(me, "PATCH", path, { scheduled_delivery_timestamp: 1000 }))).toEqual(err("Scheduled delivery time must be in the future."));
    expect(await answer(org.api(org.users.member, "PATCH", path, { content: "mine now" }))).toEqual(gone);
    expect(await answer(org.api(org.users.member, "DELETE", path))).toEqual(gone);
    expect((await list(me))[0].content).toBe("v2");
  });

  it("deletes: a remove event, then the ID is gone", async () => {
    const me = await org.createUser("sched-deleter");
    const created = await schedule(me, { type: "direct", to: JSON.stringify([org.users.member.id]), content: "x", scheduled_delivery_timestamp: later() });
    const id = created.body.scheduled_message_id as number;
    const other = client(me);
    await other.register({ event_types: ["scheduled_messages"] });

    expect(await answer(org.api(me, "DELETE", `/scheduled_messages/${id}`))).toEqual(ok);

    const event = await other.waitFor((e) => e.type === "scheduled_messages");
    expect(event).toEqual({ id: event.id, type: "scheduled_messages", op: "remove", scheduled_message_id: id });
    expect(await list(me)).toEqual([]);
    expect(await answer(org.api(me, "DELETE", `/scheduled_messages/${id}`))).toEqual(gone);
    expect(await answer(org.api(me, "PATCH", `/scheduled_messages/${id}`, { content: "y" }))).toEqual(gone);
  });
});

describe("delivery", () => {
  it("sends the message at its time, as the sender, and removes the scheduled message", async () => {
    const me = await org.createUser("sched-on-time");
    const sid = await streamId(me, "sched-delivery");
    const reader = client(org.users.member2);
    await org.api(org.users.member2, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "sched-delivery" }] });
    const mine = client(me);
    await mine.register({ event_types: ["message", "scheduled_messages"] });
    await reader.register({ event_types: ["message"], apply_markdown: true });
    const when = Math.ceil(Date.now() / 1000) + 2;

    const created = await schedule(me, { type: "stream", to: sid, topic: "on time", content: "Hello **later**", scheduled_delivery_timestamp: when });
    const id = created.body.scheduled_message_id as number;

    // Event-driven: the poll returns when the worker's send writes the event.
    const got = await reader.waitFor((e) => e.type === "message", { maxPolls: 20 });
    expect(got.message).toMatchObject({
      sender_id: me.id,
      stream_id: sid,
      subject: "on time",
      content: "<p>Hello <strong>later</strong></p>",
    });
    expect(got.message.timestamp).toBeGreaterThanOrEqual(when);
    const removed = await mine.waitFor((e) => e.type === "scheduled_messages" && e.op === "remove", { maxPolls: 20 });
    expect(removed.scheduled_message_id).toBe(id);
    expect(await list(me)).toEqual([]);
    const stored = await org.api(me, "GET", `/messages/${got.message.id}`, { apply_markdown: false });
    expect(stored.body.message).toMatchObject({ sender_id: me.id, content: "Hello **later**" });
  });

  it("a message that can no longer be sent is kept as failed, and the Notification Bot says why", async () => {
    const me = await org.createUser("sched-fails");
    const sid = await streamId(me, "sched-doomed");
    const mine = client(me);
    await mine.register({ event_types: ["message", "scheduled_messages"] });
    const when = Math.ceil(Date.now() / 1000) + 2;
    const created = await schedule(me, { type: "stream", to: sid, topic: "t", content: "too late", scheduled_delivery_timestamp: when });
    const id = created.body.scheduled_message_id as number;
    expect((await org.api(org.users.admin, "DELETE", `/streams/${sid}`)).status).toBe(200);

    const failed = await mine.waitFor((e) => e.type === "scheduled_messages" && e.op === "update", { maxPolls: 20 });
    expect(failed.scheduled_message).toMatchObject({ scheduled_message_id: id, failed: true, content: "too late" });
    const notice = await mine.waitFor((e) => e.type === "message" && e.message.sender_email === "notification-bot@zulip.com", { maxPolls: 20 });
    expect(notice.message.type).toBe("private");
    expect(notice.message.content).toContain("was not sent because of the following error:");
    expect(notice.message.content).toMatch(new RegExp(`Channel with ID (&#39;|')${sid}(&#39;|') does not exist`));
    expect(await list(me)).toEqual([failed.scheduled_message]);

    // A failed message needs a new time; with one it is scheduled again.
    const path = `/scheduled_messages/${id}`;
    expect(await answer(org.api(me, "PATCH", path, { content: "retry" }))).toEqual(err("Scheduled delivery time must be in the future."));
    expect(await answer(org.api(me, "PATCH", path, { scheduled_delivery_timestamp: later() }))).toEqual(ok);
    expect((await list(me))[0]).toMatchObject({ failed: false, content: "too late" });
  });
});
