import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDeleteMessages } from "../../shared/actions/messages/delete-messages.js";
import { runMarkAsRead } from "../../shared/actions/messages/mark-as-read.js";
import { bouncerIdentity } from "../../shared/actions/push/send-to-devices.js";
import { batchWrite } from "../../shared/data/batch-write.js";
import { allocateIds } from "../../shared/data/counters.js";
import { messageById, messageItem, sendRecipientsItems } from "../../shared/data/messages.js";
import { addPushDevice } from "../../shared/data/push-devices.js";
import { getUserMessages, updateUserMessageFlags, userMessageItem } from "../../shared/data/user-messages.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { startMockBouncer, type MockBouncerRequest } from "../support/mock-bouncer.js";
import { createStreamId, markEvents } from "./streams-helpers.js";

/*
 * Removal notifications (Zulip's `handle_remove_push_notification`): when
 * messages whose notification is on the user's phone are read, deleted, or
 * edited so that the mention that notified is gone, the phone is told to
 * clear them — one `event: remove` notification per user per request or
 * job, through the push notification service (here its mock). Rows are put
 * on the phone by setting `active_mobile_push_notification` directly (the
 * job that sets it when a notification goes out is tested on its own), and
 * the test users have push notifications of their own messages turned off
 * so that nothing else is pushed to them.
 */

const bouncer = await startMockBouncer();
const org = useTestOrg({ env: bouncer.env });
afterAll(() => bouncer.close());

const ACTIVE = "active_mobile_push_notification";
const WAIT_MS = 20_000;
let phone: TestUser;
let noPhone: TestUser;
let streamId = 0;
const STREAM = "push-removal";

/** A user who gets no message notifications of their own (see above). */
async function quietUser(name: string): Promise<TestUser> {
  const user = await org.createUser(name);
  const res = await org.api(user, "PATCH", "/settings", {
    enable_offline_push_notifications: false,
    enable_online_push_notifications: false,
  });
  expect(res.body).toMatchObject({ result: "success" });
  return user;
}

/** Registers an FCM device for the user here and at the push notification service. */
async function givePhone(user: TestUser, token: string): Promise<void> {
  const deps = org.stack.deps;
  expect(await addPushDevice(deps, { user_id: user.id, kind: 2, token, date_created: Math.floor(Date.now() / 1000) })).toBe(true);
  await deps.pushBouncer!.registerDevice({ ...(await bouncerIdentity(deps, org.realm, user.id)), token, token_kind: 2 });
}

async function post(topic: string, content: string, stream = STREAM): Promise<number> {
  const res = await org.api(org.users.member, "POST", "/messages", { type: "stream", to: stream, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function flagsOf(user: TestUser, ids: number[]): Promise<string[][]> {
  const rows = await getUserMessages(org.stack.deps, user.id, ids);
  return ids.map((id) => rows.get(id)?.flags ?? []);
}

/** Puts the messages on the user's phone: the flag the push job sets when it sends. */
async function onPhone(user: TestUser, ids: number[]): Promise<void> {
  const rows = await getUserMessages(org.stack.deps, user.id, ids);
  expect(rows.size).toBe(ids.length);
  for (const row of rows.values()) await updateUserMessageFlags(org.stack.deps, row, (flags) => [...flags, ACTIVE]);
}

/**
 * Adds `count` messages like `first` straight through the data layer (200
 * sends over HTTP take too long here), each with the user's unread row
 * already on the phone and a recipients entry.
 * @returns the new IDs, ascending
 */
async function seedOnPhone(first: number, count: number, user: TestUser): Promise<number[]> {
  const deps = org.stack.deps;
  const template = (await messageById(deps, first))!;
  const start = await allocateIds(deps, "message", count);
  const ids = Array.from({ length: count }, (_, i) => start + i);
  const items = ids.flatMap((id) => [
    messageItem({ ...template, id, content: `bulk ${id}`, rendered_content: `<p>bulk ${id}</p>` }),
    userMessageItem({ user_id: user.id, message_id: id, recipient_id: template.recipient_id, is_private: false, flags: [ACTIVE] }),
    ...sendRecipientsItems(id, [user.id]),
  ]);
  await batchWrite(deps, items, [], 16);
  return ids;
}

const body = (r: MockBouncerRequest) => r.body as { user_id: number; gcm_payload: any; apns_payload: any; gcm_options: any };
const isRemoval = (r: MockBouncerRequest, userId: number) =>
  r.endpoint === "push/notify" && r.status === 200 && body(r).gcm_payload?.event === "remove" && Number(body(r).user_id) === userId;

/** The removals the service received for a user since request index `from`, once every deferred job has run. */
async function removalsSince(userId: number, from: number): Promise<MockBouncerRequest[]> {
  await org.stack.drainDeferredWork();
  return bouncer.requests.slice(from).filter((r) => isRemoval(r, userId));
}

/** Waits for the user's next removal after `from`, checks its payloads, and returns its message IDs. */
async function nextRemoval(userId: number, from: number): Promise<number[]> {
  const r = await bouncer.waitFor((x) => isRemoval(x, userId), WAIT_MS, from);
  const { gcm_payload: gcm, apns_payload: apns, gcm_options: options } = body(r);
  expect(options).toEqual({ priority: "normal" });
  expect(gcm).toMatchObject({ event: "remove", realm_id: org.realm.id, user_id: userId });
  expect(apns.custom.zulip).toMatchObject({ event: "remove", zulip_message_ids: gcm.zulip_message_ids, user_id: userId });
  const ids = String(gcm.zulip_message_ids).split(",").map(Number);
  expect(gcm.zulip_message_id).toBe(ids[0]);
  return ids;
}

beforeAll(async () => {
  phone = await quietUser("push-removal-phone");
  noPhone = await quietUser("push-removal-nophone");
  await givePhone(phone, "fcm-removal-1");
  streamId = await createStreamId(org, org.users.member, STREAM, { principals: [phone.id, noPhone.id] });
});

describe("removal notifications on reading", () => {
  it("POST /messages/flags add read: one removal of exactly the rows on the phone, whose flag goes", async () => {
    // Prepare
    const ids = [await post("flags", "one"), await post("flags", "two"), await post("flags", "three")];
    await onPhone(phone, [ids[0]!, ids[2]!]);
    const marks = await markEvents(org, [phone]);
    const from = bouncer.requests.length;
    // Act
    const res = await org.api(phone, "POST", "/messages/flags", { messages: ids, op: "add", flag: "read" });
    // Assess
    expect(res.body).toEqual({ result: "success", msg: "", messages: ids });
    expect(await nextRemoval(phone.id, from)).toEqual([ids[0], ids[2]]);
    expect(await removalsSince(phone.id, from)).toHaveLength(1);
    for (const flags of await flagsOf(phone, ids)) {
      expect(flags).toContain("read");
      expect(flags).not.toContain(ACTIVE);
    }
    // The event names `read` only.
    const events = (await marks.since(phone)).filter((e) => e.type === "update_message_flags");
    expect(events).toEqual([expect.objectContaining({ op: "add", flag: "read", messages: ids })]);
    expect(JSON.stringify(events)).not.toContain(ACTIVE);
  });

  it("sends nothing for rows without a notification: a later removal carries only its own IDs", async () => {
    const plain = [await post("plain", "a"), await post("plain", "b")];
    const from = bouncer.requests.length;
    await org.api(phone, "POST", "/messages/flags", { messages: plain, op: "add", flag: "read" });
    const later = await post("plain", "c");
    await onPhone(phone, [later]);
    await org.api(phone, "POST", "/messages/flags", { messages: [later], op: "add", flag: "read" });
    expect(await nextRemoval(phone.id, from)).toEqual([later]);
    expect(await removalsSince(phone.id, from)).toHaveLength(1);
  });

  it("clears a row already read that still has a notification, without reporting it newly read", async () => {
    const id = await post("late", "read before its notification was marked");
    await org.api(phone, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    await onPhone(phone, [id]);
    const from = bouncer.requests.length;
    const res = await org.api(phone, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    expect(res.body.messages).toEqual([]);
    expect(await nextRemoval(phone.id, from)).toEqual([id]);
    expect((await flagsOf(phone, [id]))[0]).not.toContain(ACTIVE);
  });

  it("removing read (marking unread) sends nothing and keeps the flag", async () => {
    const id = await post("unread", "x");
    await org.api(phone, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    await onPhone(phone, [id]);
    const from = bouncer.requests.length;
    await org.api(phone, "POST", "/messages/flags", { messages: [id], op: "remove", flag: "read" });
    expect(await removalsSince(phone.id, from)).toEqual([]);
    expect((await flagsOf(phone, [id]))[0]).toContain(ACTIVE);
    // Reading it again clears it.
    await org.api(phone, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    expect(await nextRemoval(phone.id, from)).toEqual([id]);
  });

  it("POST /mark_topic_as_read, /mark_stream_as_read and /mark_all_as_read: one removal each", async () => {
    const inTopic = [await post("topic-a", "1"), await post("topic-a", "2")];
    const otherTopic = await post("topic-b", "3");
    const dm = await org.api(org.users.member, "POST", "/messages", { type: "direct", to: JSON.stringify([phone.id]), content: "dm" });
    const dmId = dm.body.id as number;
    await onPhone(phone, [...inTopic, otherTopic, dmId]);

    let from = bouncer.requests.length;
    const topicRes = await org.api(phone, "POST", "/mark_topic_as_read", { stream_id: streamId, topic_name: "topic-a" });
    expect(topicRes.body).toMatchObject({ result: "success" });
    expect(await nextRemoval(phone.id, from)).toEqual(inTopic);
    expect(await removalsSince(phone.id, from)).toHaveLength(1);

    from = bouncer.requests.length;
    await org.api(phone, "POST", "/mark_stream_as_read", { stream_id: streamId });
    expect(await nextRemoval(phone.id, from)).toEqual([otherTopic]);
    expect(await removalsSince(phone.id, from)).toHaveLength(1);

    from = bouncer.requests.length;
    await org.api(phone, "POST", "/mark_all_as_read", {});
    expect(await nextRemoval(phone.id, from)).toEqual([dmId]);
    expect(await removalsSince(phone.id, from)).toHaveLength(1);
    expect((await flagsOf(phone, [...inTopic, otherTopic, dmId])).flat()).not.toContain(ACTIVE);
  });

  it("muting the sender marks their messages read and clears them from the phone", async () => {
    const sender = await org.createUser("push-removal-muted");
    const res = await org.api(sender, "POST", "/messages", { type: "direct", to: JSON.stringify([phone.id]), content: "hi" });
    const id = res.body.id as number;
    await onPhone(phone, [id]);
    const from = bouncer.requests.length;
    expect((await org.api(phone, "POST", `/users/me/muted_users/${sender.id}`)).body).toMatchObject({ result: "success" });
    expect(await nextRemoval(phone.id, from)).toEqual([id]);
  });

  it("sends the newest 200 IDs when more rows were on the phone", async () => {
    const stream = "push-removal-many";
    const manyStreamId = await createStreamId(org, org.users.member, stream, { principals: [phone.id] });
    const first = await post("many", "first", stream);
    await onPhone(phone, [first]);
    const ids = [first, ...(await seedOnPhone(first, 204, phone))];
    const from = bouncer.requests.length;
    await org.api(phone, "POST", "/mark_stream_as_read", { stream_id: manyStreamId });
    expect(await nextRemoval(phone.id, from)).toEqual(ids.slice(-200));
    expect(await removalsSince(phone.id, from)).toHaveLength(1);
    expect((await flagsOf(phone, ids)).flat()).not.toContain(ACTIVE);
  });

  it("sends nothing for a user without a device (the flag still goes)", async () => {
    const id = await post("nophone", "x");
    await onPhone(noPhone, [id]);
    const from = bouncer.requests.length;
    await org.api(noPhone, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    expect((await flagsOf(noPhone, [id]))[0]).not.toContain(ACTIVE);
    // A later removal of the user with a phone arrives; none came for the other.
    const later = await post("nophone", "y");
    await onPhone(phone, [later]);
    await org.api(phone, "POST", "/messages/flags", { messages: [later], op: "add", flag: "read" });
    expect(await nextRemoval(phone.id, from)).toEqual([later]);
    await org.stack.drainDeferredWork();
    expect(bouncer.requests.slice(from).filter((r) => r.endpoint === "push/notify" && Number(body(r).user_id) === noPhone.id)).toEqual([]);
  });
});

describe("removal notifications on deleting and editing", () => {
  it("deleting a message on the phone sends a removal", async () => {
    const res = await org.api(org.users.admin, "POST", "/messages", { type: "direct", to: JSON.stringify([phone.id]), content: "oops" });
    const id = res.body.id as number;
    await onPhone(phone, [id]);
    const from = bouncer.requests.length;
    expect((await org.api(org.users.admin, "DELETE", `/messages/${id}`)).body).toMatchObject({ result: "success" });
    expect(await nextRemoval(phone.id, from)).toEqual([id]);
    expect(await removalsSince(phone.id, from)).toHaveLength(1);
  });

  it("an edit that takes the mention away clears the notification; the row stays unread", async () => {
    const id = await post("edit", `hey @**${phone.fullName}**`);
    expect((await flagsOf(phone, [id]))[0]).toContain("mentioned");
    await onPhone(phone, [id]);
    const from = bouncer.requests.length;
    const res = await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "hey everyone" });
    expect(res.body).toMatchObject({ result: "success" });
    expect(await nextRemoval(phone.id, from)).toEqual([id]);
    const flags = (await flagsOf(phone, [id]))[0]!;
    expect(flags).not.toContain("mentioned");
    expect(flags).not.toContain(ACTIVE);
    expect(flags).not.toContain("read");
  });

  it("an edit keeps the notification of a user still notified (the stream's push notifications)", async () => {
    const set = await org.api(phone, "POST", "/users/me/subscriptions/properties", {
      subscription_data: JSON.stringify([{ stream_id: streamId, property: "push_notifications", value: true }]),
    });
    expect(set.body).toMatchObject({ result: "success" });
    const id = await post("edit-keep", `hey @**${phone.fullName}**`);
    await onPhone(phone, [id]);
    const from = bouncer.requests.length;
    await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "hey everyone" });
    expect(await removalsSince(phone.id, from)).toEqual([]);
    expect((await flagsOf(phone, [id]))[0]).toContain(ACTIVE);
    // Reading it later clears it as usual.
    await org.api(phone, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    expect(await nextRemoval(phone.id, from)).toEqual([id]);
    await org.api(phone, "POST", "/users/me/subscriptions/properties", {
      subscription_data: JSON.stringify([{ stream_id: streamId, property: "push_notifications", value: false }]),
    });
  });
});

describe("removal notifications from deferred jobs", () => {
  it("a `mark_as_read` job clears what it marks; a `delete_messages` job what it deletes", async () => {
    // The jobs continue requests over large scopes and audiences; run here on a small one.
    const [a, b] = [await post("jobs", "a"), await post("jobs", "b")];
    await onPhone(phone, [a, b]);
    let from = bouncer.requests.length;
    const scope = { kind: "topic", stream_id: streamId, topic: "jobs" } as const;
    await runMarkAsRead(org.stack.deps, { realm_id: org.realm.id, user_id: phone.id, scope, after: a });
    expect(await nextRemoval(phone.id, from)).toEqual([b]);

    from = bouncer.requests.length;
    await runDeleteMessages(org.stack.deps, { realm_id: org.realm.id, message_id: a, user_ids: [phone.id, noPhone.id] });
    expect(await nextRemoval(phone.id, from)).toEqual([a]);
    expect(await getUserMessages(org.stack.deps, phone.id, [a])).toEqual(new Map());
  });
});

describe("the flag on the wire", () => {
  it("never shows in GET /messages", async () => {
    const id = await post("wire", "w");
    await onPhone(phone, [id]);
    const res = await org.api(phone, "GET", "/messages", { anchor: id, num_before: 0, num_after: 0 });
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.messages[0].flags).toEqual([]);
    // Read, so that its removal is sent before the service's mock closes.
    const from = bouncer.requests.length;
    await org.api(phone, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    expect(await nextRemoval(phone.id, from)).toEqual([id]);
  });
});
