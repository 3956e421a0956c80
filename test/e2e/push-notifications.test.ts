import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doMessageNotifications } from "../../shared/actions/notifications/message-notifications.js";
import { runPushNotification } from "../../shared/actions/push/push-notification.js";
import type { DeferredJob } from "../../shared/deferred/jobs.js";
import type { Deps } from "../../shared/deps.js";
import { doSetRealmPushStatus } from "../../shared/actions/push/realm-push-status.js";
import { bouncerIdentity } from "../../shared/actions/push/send-to-devices.js";
import { addPushDevice, listPushDevices } from "../../shared/data/push-devices.js";
import { getRealm } from "../../shared/data/realms.js";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { basePushPayload } from "../../shared/domain/push-payload.js";
import { PushTokenKind } from "../../shared/push/bouncer.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { startMockBouncer, type MockBouncerRequest } from "../support/mock-bouncer.js";
import { createStream, markEvents } from "./streams-helpers.js";

/*
 * Mobile push notifications of messages (https://zulip.com/help/mobile-notifications)
 * through HTTP on the local stack, against the mock push notification
 * service: the send's `message_notifications` job decides, a
 * `push_notification` job per notified user sends. Users are idle unless a
 * test pings presence (a fresh user has none). "Nothing was sent" is shown
 * by a later, notifiable message whose notification arrives, after which
 * the queue is drained and the earlier message is checked to have none.
 */

const bouncer = await startMockBouncer();
const org = useTestOrg({ env: bouncer.env });
const WAIT_MS = 20_000;
let serial = 0;

beforeAll(() => {
  expect(org.stack.deps.pushBouncer).toBeDefined();
});
afterAll(() => bouncer.close());

async function ok(res: { body: Record<string, unknown> }): Promise<Record<string, any>> {
  expect(res.body).toMatchObject({ result: "success" });
  return res.body;
}

/** Registers a device for a user here (the data layer) and at the mock service, as the registration endpoints do. */
async function registerDevice(user: TestUser, kind: PushTokenKind = PushTokenKind.FCM): Promise<string> {
  const token = `${kind === PushTokenKind.APNS ? "apns" : "fcm"}-${user.id}-${++serial}`;
  const deps = org.stack.deps;
  const device = { user_id: user.id, kind, token, date_created: Math.floor(Date.now() / 1000) };
  const ios = kind === PushTokenKind.APNS ? { ios_app_id: "org.zulip.Zulip" } : {};
  expect(await addPushDevice(deps, { ...device, ...ios })).toBe(true);
  const realm = (await getRealm(deps, org.realm.id))!;
  await deps.pushBouncer!.registerDevice({ ...(await bouncerIdentity(deps, realm, user.id)), token, token_kind: kind, ...ios });
  return token;
}

async function userWithDevice(name: string, settings: Record<string, unknown> = {}): Promise<TestUser> {
  const user = await org.createUser(name);
  if (Object.keys(settings).length > 0) await ok(await org.api(user, "PATCH", "/settings", settings));
  await registerDevice(user);
  return user;
}

async function dm(sender: TestUser, to: TestUser[], content: string): Promise<number> {
  return (await ok(await org.api(sender, "POST", "/messages", { type: "direct", to: JSON.stringify(to.map((u) => u.id)), content }))).id;
}

async function post(sender: TestUser, stream: string, topic: string, content: string): Promise<number> {
  return (await ok(await org.api(sender, "POST", "/messages", { type: "stream", to: stream, topic, content }))).id;
}

const isNotifyOf = (userId: number, messageId: number) => (r: MockBouncerRequest) =>
  r.endpoint === "push/notify" &&
  Number(r.body.user_id) === userId &&
  (r.body.gcm_payload as Record<string, unknown> | undefined)?.zulip_message_id === messageId;

/** The accepted notifications of one user's message, once the queue is empty. */
async function notificationsOf(user: TestUser, messageId: number): Promise<MockBouncerRequest[]> {
  await org.stack.drainDeferredWork();
  return bouncer.requests.filter((r) => isNotifyOf(user.id, messageId)(r) && r.status === 200);
}

async function expectNotified(user: TestUser, messageId: number): Promise<Record<string, any>> {
  const req = await bouncer.waitFor((r) => isNotifyOf(user.id, messageId)(r) && r.status === 200, WAIT_MS, 0);
  expect(await notificationsOf(user, messageId)).toHaveLength(1);
  return req.body;
}

async function messageOf(user: TestUser, id: number): Promise<Record<string, any>> {
  return (await ok(await org.api(user, "GET", `/messages/${id}`))).message;
}

describe("push notifications of messages", () => {
  it("notifies an idle user of a DM once, with Zulip's APNs and FCM payloads", async () => {
    // Prepare
    const sender = await org.createUser("push-dm-sender");
    const to = await org.createUser("push-dm-to");
    const apnsToken = await registerDevice(to, PushTokenKind.APNS);
    const fcmToken = await registerDevice(to, PushTokenKind.FCM);
    // Act
    const id = await dm(sender, [to], "Lunch at **noon**? :smile:");
    const body = await expectNotified(to, id);
    // Assess
    const deps = org.stack.deps;
    const realm = (await getRealm(deps, org.realm.id))!;
    const m = await messageOf(to, id);
    const senderEmail = (await ok(await org.api(to, "GET", `/users/${sender.id}`))).user.email;
    const payload = {
      ...basePushPayload(realm, to.id, deps.config),
      sender_id: sender.id,
      sender_email: senderEmail,
      time: m.timestamp,
      recipient_type: "private",
    };
    const identity = await bouncerIdentity(deps, realm, to.id);
    expect(body).toMatchObject({ user_id: to.id, user_uuid: identity.user_uuid, realm_uuid: identity.realm_uuid });
    expect(body.android_devices).toEqual([fcmToken]);
    expect(body.apple_devices).toEqual([apnsToken]);
    expect(body.apns_payload).toEqual({
      alert: { title: sender.fullName, subtitle: "", body: "Lunch at noon? 🙂" },
      sound: "default",
      badge: 0,
      custom: { zulip: { ...payload, message_ids: [id] } },
    });
    expect(body.gcm_payload).toEqual({
      ...payload,
      event: "message",
      zulip_message_id: id,
      content: "Lunch at noon? 🙂",
      content_truncated: false,
      sender_full_name: sender.fullName,
      sender_avatar_url: m.avatar_url,
    });
    expect(body.gcm_options).toEqual({ priority: "high" });
    // The row carries the (API-hidden) flag that removals look for.
    const row = (await getUserMessages(deps, to.id, [id])).get(id)!;
    expect(row.flags).toContain("active_mobile_push_notification");
    expect(m.flags).not.toContain("active_mobile_push_notification");
  });

  it("notifies an idle user of a mention once, titled by stream and topic", async () => {
    const sender = await org.createUser("push-mention-sender");
    const to = await userWithDevice("push-mention-to");
    const stream = await createStream(org, sender, "push mentions", { principals: [sender.id, to.id] });
    const id = await post(sender, "push mentions", "plans", `@**${to.fullName}** see the [doc](https://example.com/d)`);
    const body = await expectNotified(to, id);
    const m = await messageOf(to, id);
    const expected = {
      sender_id: sender.id,
      time: m.timestamp,
      recipient_type: "stream",
      stream: "push mentions",
      stream_id: stream.stream_id,
      topic: "plans",
    };
    const text = `@${to.fullName} see the doc`;
    expect(body.apns_payload.alert).toEqual({ title: "#push mentions > plans", subtitle: `${sender.fullName} mentioned you:`, body: text });
    expect(body.apns_payload.custom.zulip).toMatchObject({ ...expected, message_ids: [id] });
    expect(body.gcm_payload).toMatchObject({ ...expected, event: "message", zulip_message_id: id, content: text, content_truncated: false });
    expect(body.gcm_payload).not.toHaveProperty("mentioned_user_group_id");
  });

  it("names the group whose mention notified the user", async () => {
    const sender = await org.createUser("push-group-sender");
    const to = await userWithDevice("push-group-to");
    await createStream(org, sender, "push groups", { principals: [sender.id, to.id] });
    await ok(
      await org.api(org.users.owner, "POST", "/user_groups/create", {
        name: `pushers-${serial}`,
        description: "",
        members: JSON.stringify([sender.id, to.id]),
      }),
    );
    const groups = (await ok(await org.api(org.users.owner, "GET", "/user_groups"))).user_groups as { id: number; name: string }[];
    const groupId = groups.find((g) => g.name === `pushers-${serial}`)!.id;
    const id = await post(sender, "push groups", "call", `@*pushers-${serial}* standup now`);
    const body = await expectNotified(to, id);
    expect(body.gcm_payload).toMatchObject({ mentioned_user_group_id: groupId, mentioned_user_group_name: `pushers-${serial}` });
    expect(body.apns_payload.alert.subtitle).toBe(`${sender.fullName} mentioned @pushers-${serial}:`);
  });

  it("sends nothing to an active user, unless they turned enable_online_push_notifications on", async () => {
    const sender = await org.createUser("push-active-sender");
    const to = await userWithDevice("push-active-to", { enable_online_push_notifications: false });
    await ok(await org.api(to, "POST", "/users/me/presence", { status: "active" }));
    const quiet = await dm(sender, [to], "you are here");
    // The first message's decision is made before the setting changes.
    await org.stack.drainDeferredWork();
    await ok(await org.api(to, "PATCH", "/settings", { enable_online_push_notifications: true }));
    const loud = await dm(sender, [to], "you are here, and want pushes anyway");
    await expectNotified(to, loud);
    expect(await notificationsOf(to, quiet)).toEqual([]);
  });

  it("sends nothing for a muted topic, a muted stream, a muted sender, nor to the sender", async () => {
    const sender = await userWithDevice("push-mute-sender");
    const muted = await org.createUser("push-muted-one");
    const to = await userWithDevice("push-mute-to", { enable_stream_push_notifications: true });
    const open = await createStream(org, sender, "push open", { principals: [sender.id, to.id] });
    const hushed = await createStream(org, sender, "push hushed", { principals: [sender.id, to.id] });
    await ok(await org.api(to, "POST", "/user_topics", { stream_id: open.stream_id, topic: "quiet", visibility_policy: 1 }));
    await ok(
      await org.api(to, "POST", "/users/me/subscriptions/properties", {
        subscription_data: JSON.stringify([{ stream_id: hushed.stream_id, property: "is_muted", value: true }]),
      }),
    );
    await ok(await org.api(to, "POST", `/users/me/muted_users/${muted.id}`));

    const inMutedTopic = await post(sender, "push open", "quiet", "shh");
    const inMutedStream = await post(sender, "push hushed", "any", "shh too");
    const fromMuted = await dm(muted, [to], "ignored");
    const loud = await post(sender, "push open", "loud", "hello all");
    await expectNotified(to, loud);
    for (const id of [inMutedTopic, inMutedStream, fromMuted]) expect(await notificationsOf(to, id)).toEqual([]);
    expect(bouncer.requests.filter((r) => r.endpoint === "push/notify" && Number(r.body.user_id) === sender.id)).toEqual([]);
  });

  it("sends nothing for a message read before the job runs, and one notification for duplicate jobs", async () => {
    // No device at send time: the decision queues nothing, and the test runs the job itself.
    const sender = await org.createUser("push-read-sender");
    const to = await org.createUser("push-read-to");
    const read = await dm(sender, [to], "read elsewhere");
    const unread = await dm(sender, [to], "still unread");
    await org.stack.drainDeferredWork();
    await registerDevice(to);
    await ok(await org.api(to, "POST", "/messages/flags", { messages: JSON.stringify([read]), op: "add", flag: "read" }));
    const job = (message_id: number) => ({ realm_id: org.realm.id, user_id: to.id, message_id, trigger: "private_message" });

    await runPushNotification(org.stack.deps, job(read));
    await Promise.all([runPushNotification(org.stack.deps, job(unread)), runPushNotification(org.stack.deps, job(unread))]);
    await runPushNotification(org.stack.deps, job(unread));

    expect(await notificationsOf(to, read)).toEqual([]);
    expect(await notificationsOf(to, unread)).toHaveLength(1);
    const flagsOf = async (user: TestUser, id: number) => (await getUserMessages(org.stack.deps, user.id, [id])).get(id)!.flags;
    expect(await flagsOf(to, read)).not.toContain("active_mobile_push_notification");

    // A user without any device: nothing is on a phone, so the claim is released.
    const lonely = await org.createUser("push-read-lonely");
    const none = await dm(sender, [lonely], "no phone");
    await runPushNotification(org.stack.deps, { ...job(none), user_id: lonely.id });
    expect(await notificationsOf(lonely, none)).toEqual([]);
    expect(await flagsOf(lonely, none)).not.toContain("active_mobile_push_notification");
  });

  it("deletes a device the service reports deleted", async () => {
    const sender = await org.createUser("push-drop-sender");
    const to = await userWithDevice("push-drop-to");
    const gone = await registerDevice(to);
    bouncer.dropDevice(gone);
    const id = await dm(sender, [to], "one of your phones is gone");
    const body = await expectNotified(to, id);
    expect(body.android_devices).toContain(gone);
    const tokens = (await listPushDevices(org.stack.deps, to.id)).map((d) => d.token);
    expect(tokens).toHaveLength(1);
    expect(tokens).not.toContain(gone);
  });

  it("retries a job the service failed (503) and notifies once", async () => {
    const sender = await org.createUser("push-retry-sender");
    const to = await userWithDevice("push-retry-to");
    await org.stack.drainDeferredWork();
    bouncer.failNext(503);
    const id = await dm(sender, [to], "second time lucky");
    await expectNotified(to, id);
    const attempts = bouncer.requests.filter(isNotifyOf(to.id, id)).map((r) => r.status);
    expect(attempts).toEqual([503, 200]);
    // The claim was released for the retry and taken again by it.
    expect((await getUserMessages(org.stack.deps, to.id, [id])).get(id)!.flags).toContain("active_mobile_push_notification");
  });

  it("turns the organization's push notifications off when the plan disallows them, with a realm update event", async () => {
    const sender = await org.createUser("push-plan-sender");
    const to = await userWithDevice("push-plan-to");
    await org.stack.drainDeferredWork();
    await doSetRealmPushStatus(org.stack.deps, org.realm.id, true, null);
    const events = await markEvents(org, [org.users.owner]);
    bouncer.setCanPush(false, "over the free plan's limit");
    try {
      const id = await dm(sender, [to], "will not ring");
      await bouncer.waitFor((r) => isNotifyOf(to.id, id)(r) && r.status === 400, WAIT_MS, 0);
      expect(await notificationsOf(to, id)).toEqual([]);
      expect((await getRealm(org.stack.deps, org.realm.id))!.push_notifications_enabled).toBe(false);
      expect(await events.since(org.users.owner)).toContainEqual(
        expect.objectContaining({ type: "realm", op: "update", property: "push_notifications_enabled", value: false }),
      );
      // Nothing reached a phone: the claim is released.
      expect((await getUserMessages(org.stack.deps, to.id, [id])).get(id)!.flags).not.toContain("active_mobile_push_notification");
    } finally {
      bouncer.setCanPush(true);
    }
  });

  describe("the decision's cost", () => {
    /** The deps of the stack, counting DynamoDB commands and capturing enqueued jobs instead of sending them. */
    function counting(push: boolean) {
      const deps = org.stack.deps;
      const commands: string[] = [];
      const enqueued: DeferredJob[][] = [];
      const db = { send: (cmd: { constructor: { name: string } }) => (commands.push(cmd.constructor.name), deps.db.send(cmd as never)) };
      const counted: Deps = {
        ...deps,
        db: db as unknown as Deps["db"],
        deferred: { enqueue: async (jobs: DeferredJob[]) => void enqueued.push(jobs) } as unknown as Deps["deferred"],
        pushBouncer: push ? deps.pushBouncer : undefined,
      };
      return { counted, commands, enqueued };
    }

    it("reads device counts in one BatchGet beside the one presence BatchGet, and queues the push jobs in one call", async () => {
      const sender = await org.createUser("push-cost-sender");
      const [a, b] = [await userWithDevice("push-cost-a"), await org.createUser("push-cost-b")];
      const message = { realm_id: org.realm.id, message_id: await dm(sender, [a, b], "cost"), sender_id: sender.id };
      const rows = [a, b].map((u) => ({ user_id: u.id, flags: [] as string[] }));
      await org.stack.drainDeferredWork();

      const withPush = counting(true);
      const decisions = await doMessageNotifications(withPush.counted, message, rows);
      const withoutPush = counting(false);
      await doMessageNotifications(withoutPush.counted, message, rows);

      // Users, presence (both email and push candidates), device counts; then the email batches' writes.
      expect(withPush.commands.filter((c) => c === "BatchGetCommand")).toHaveLength(3);
      expect(withoutPush.commands.filter((c) => c === "BatchGetCommand")).toHaveLength(2);
      expect(withPush.commands.length - withoutPush.commands.length).toBe(1);
      const pushCalls = withPush.enqueued.filter((jobs) => jobs.some((j) => j.kind === "push_notification"));
      expect(pushCalls).toEqual([
        [{ kind: "push_notification", payload: { realm_id: org.realm.id, user_id: a.id, message_id: message.message_id, trigger: "private_message" } }],
      ]);
      expect(withoutPush.enqueued.flat().some((j) => j.kind === "push_notification")).toBe(false);
      expect(decisions.get(a.id)?.pushTrigger).toBe("private_message");
      expect(decisions.get(b.id)?.pushTrigger).toBeUndefined();
    });
  });
});
