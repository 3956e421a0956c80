import { DeleteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { checkSendMessage } from "../../shared/actions/messages/send-message.js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { getQueue } from "../../shared/data/event-queues.js";
import { keys } from "../../shared/data/keys.js";
import { listRealmUsers } from "../../shared/data/users.js";
import { systemClock } from "../../shared/deps.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { serverHoldsLongPoll } from "../support/long-poll.js";
import { QUEUE_TIMEOUT_MS } from "../../shared/events/queues.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

/** A queue client that validates every delivered event against its strict schema. */
function client(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

let counter = 0;
/** Creates a user directly through the action (its `realm_user` `add` event goes to everyone). */
async function createUser(): Promise<number> {
  counter++;
  const user = await doCreateUser(org.stack.deps, org.realm, {
    email: `events-new${counter}@test.example`,
    full_name: `New ${counter}`,
  });
  return user.user_id;
}

/** Removes log items written "in the future" from every user's log, so later tests' queues do not see them. */
async function deleteFutureEvents(afterMs: number): Promise<void> {
  const deps = org.stack.deps;
  for (const user of await listRealmUsers(deps, org.realm.id)) {
    const out = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: "pk = :pk AND sk > :from",
        ExpressionAttributeValues: { ":pk": keys.userEvents(user.user_id).pk, ":from": String(afterMs).padStart(13, "0") },
      }),
    );
    for (const item of out.Items ?? []) {
      await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: { pk: item.pk, sk: item.sk } }));
    }
  }
}

function setHold(ms: number): void {
  (org.stack.deps.config as { LONGPOLL_HOLD_MS: number }).LONGPOLL_HOLD_MS = ms;
}

afterEach(() => {
  org.stack.deps.clock = systemClock;
  setHold(20_000);
});

describe("POST /register", () => {
  it("returns an opaque queue ID, last_event_id -1 and the version fields", async () => {
    const res = await org.api(org.users.member, "POST", "/register", { event_types: ["realm_user"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: "success",
      msg: "",
      last_event_id: -1,
      event_queue_longpoll_timeout_seconds: 90,
      zulip_feature_level: 283,
      zulip_version: "10.0-dev",
      zulip_merge_base: "10.0-dev",
      service_feature_level: 283,
      service_version: "10.0-dev",
      service_merge_base: "10.0-dev",
    });
    expect(res.body.queue_id).toMatch(/^\d{13}:[0-9a-f]{24}$/);
    const stored = await getQueue(org.stack.deps, res.body.queue_id);
    expect(stored).toMatchObject({ user_id: org.users.member.id, event_types: ["realm_user"], next_event_id: 0 });
  });

  it("refuses all_public_streams for a guest and changes nothing", async () => {
    const res = await org.api(org.users.guest, "POST", "/register", { all_public_streams: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "User not authorized for this query", code: "BAD_REQUEST" });
  });

  it("refuses a narrow operator events cannot filter on, and a malformed narrow", async () => {
    const bad = await org.api(org.users.member, "POST", "/register", { narrow: [["search", "x"]] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: "error", msg: "Operator search not supported.", code: "BAD_REQUEST" });
    const followed = await org.api(org.users.member, "POST", "/register", { narrow: [["is", "followed"]] });
    expect(followed.body.msg).toBe("Operand followed not supported.");
    const shape = await org.api(org.users.member, "POST", "/register", { narrow: [["stream"]] });
    expect(shape.body.msg).toBe("Invalid narrow[0]");
    const notJson = await org.api(org.users.member, "POST", "/register", { narrow: "[" });
    expect(notJson.body.msg).toBe('Argument "narrow" is not valid JSON.');
    const notList = await org.api(org.users.member, "POST", "/register", { event_types: "5" });
    expect(notList.body.msg).toBe("event_types is not a list");
  });

  it("a message sent while the snapshot is read is in the snapshot or in the queue, never both", async () => {
    const { member, member2 } = org.users;
    const deps = org.stack.deps;
    await org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "register-race" }], principals: [member.id, member2.id] });
    // Send right after the queue item is stored, before the initial state is read.
    const original = deps.db.send.bind(deps.db);
    let raced: number | undefined;
    deps.db.send = (async (command: { input?: { Item?: { type?: string } } }, ...rest: unknown[]) => {
      const out = await (original as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
      if (raced === undefined && command.input?.Item?.type === "event_queue") {
        raced = -1;
        raced = (await checkSendMessage(deps, org.realm, org.records.member, {
          type: "stream",
          to: "register-race",
          topic: "race",
          content: "in between",
          clientName: "test",
        })).id;
      }
      return out;
    }) as typeof deps.db.send;
    let reg: Record<string, any>;
    const q = client(member2);
    try {
      reg = await q.register({ event_types: ["message"], fetch_event_types: ["message", "update_message_flags"] });
    } finally {
      deps.db.send = original;
    }
    expect(raced).toBeGreaterThan(0);
    const inSnapshot = (reg.unread_msgs.streams as { unread_message_ids: number[] }[]).some((s) => s.unread_message_ids.includes(raced!));
    expect(inSnapshot).toBe(true);
    expect(reg.max_message_id).toBe(raced);
    expect((await q.poll({ dontBlock: true })).filter((e) => e.type === "message")).toEqual([]);
    // Later messages still arrive.
    const later = await org.api(member, "POST", "/messages", { type: "stream", to: "register-race", topic: "race", content: "after" });
    const events = (await q.poll({ dontBlock: true })).filter((e) => e.type === "message");
    expect(events.map((e) => e.message.id)).toEqual([later.body.id]);
  });

  it("ignores unsupported event types", async () => {
    const q = client(org.users.member);
    const reg = await q.register({ event_types: ["no_such_type", "realm_user"], fetch_event_types: ["no_such_type"] });
    expect(reg.result).toBe("success");
    await createUser();
    expect((await q.poll({ dontBlock: true })).map((e) => e.type)).toEqual(["realm_user"]);
  });
});

describe("GET /events", () => {
  it("delivers each event once, in order, with increasing IDs", async () => {
    const q = client(org.users.member);
    await q.register({ event_types: ["realm_user"] });
    expect(await q.poll({ dontBlock: true })).toEqual([]);
    const a = await createUser();
    const b = await createUser();
    const events = await q.poll({ dontBlock: true });
    expect(events.map((e) => [e.id, e.type, e.op, e.person.user_id])).toEqual([
      [0, "realm_user", "add", a],
      [1, "realm_user", "add", b],
    ]);
    expect(await q.poll({ dontBlock: true })).toEqual([]);
  });

  it("answers with queue_id and an empty list for dont_block on a quiet queue", async () => {
    const q = client(org.users.member);
    await q.register({ event_types: ["realm_user"] });
    const res = await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: -1, dont_block: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", events: [], queue_id: q.queueId });
  });

  it("re-delivers unacknowledged events, and refuses IDs that were pruned or never existed", async () => {
    const q = client(org.users.member2);
    await q.register({ event_types: ["realm_user"] });
    const userId = await createUser();
    const first = await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: -1, dont_block: true });
    expect(first.body.events).toHaveLength(1);
    const again = await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: -1, dont_block: true });
    expect(again.body.events).toEqual(first.body.events);
    expect(again.body.events[0]).toMatchObject({ id: 0, person: { user_id: userId } });

    const acked = await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: 0, dont_block: true });
    expect(acked.body.events).toEqual([]);
    const old = await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: -1, dont_block: true });
    expect(old.status).toBe(400);
    expect(old.body).toEqual({ result: "error", msg: "An event newer than -1 has already been pruned!", code: "BAD_REQUEST" });
    const future = await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: 5, dont_block: true });
    expect(future.body).toEqual({ result: "error", msg: "Event 5 was not in this queue", code: "BAD_REQUEST" });
    const stored = await getQueue(org.stack.deps, q.queueId!);
    expect(stored).toMatchObject({ pending: [], newest_pruned_id: 0, next_event_id: 1 });
  });

  it("holds the request until an event arrives", async () => {
    const q = client(org.users.moderator);
    await q.register({ event_types: ["realm_user"] });
    const held = serverHoldsLongPoll(org.stack.deps, org.users.moderator.id);
    const polling = q.poll();
    // Wait until the server holds the poll, not a fixed time: on a busy machine it may not have arrived yet.
    expect(await Promise.race([held.then((ok) => (ok ? "held" : "never held")), polling.then(() => "answered")])).toBe("held");
    const userId = await createUser();
    const events = await polling;
    expect(events).toMatchObject([{ id: 0, type: "realm_user", op: "add", person: { user_id: userId } }]);
  });

  it("answers with a heartbeat when nothing happens within the hold time, and heartbeats are acknowledged like events", async () => {
    setHold(300);
    const q = client(org.users.admin);
    await q.register({ event_types: ["realm_user"] });
    expect(await q.poll()).toEqual([{ type: "heartbeat", id: 0 }]);
    expect(await q.poll()).toEqual([{ type: "heartbeat", id: 1 }]);
    const stored = await getQueue(org.stack.deps, q.queueId!);
    expect(stored).toMatchObject({ newest_pruned_id: 0, pending: [{ i: 1, s: "H" }] });
  });

  it("gives every queue of a user its own copy, exactly once", async () => {
    const q1 = client(org.users.member);
    const q2 = client(org.users.member);
    await q1.register({ event_types: ["realm_user"] });
    await q2.register({ event_types: ["realm_user"] });
    const userId = await createUser();
    for (const q of [q1, q2]) {
      expect(await q.poll({ dontBlock: true })).toMatchObject([{ id: 0, person: { user_id: userId } }]);
      expect(await q.poll({ dontBlock: true })).toEqual([]);
    }
  });

  it("does not deliver changes made before the queue was registered", async () => {
    await createUser();
    const q = client(org.users.member);
    await q.register({ event_types: ["realm_user"] });
    expect(await q.poll({ dontBlock: true })).toEqual([]);
  });

  it("still delivers later events after one written by a clock running ahead", async () => {
    const q = client(org.users.member);
    await q.register({ event_types: ["realm_user"] });
    const realNow = Date.now();
    org.stack.deps.clock = { now: () => realNow + 3_600_000 };
    const ahead = await createUser();
    org.stack.deps.clock = systemClock;
    try {
      expect((await q.poll({ dontBlock: true })).map((e) => e.person.user_id)).toEqual([ahead]);
      const onTime = await createUser();
      expect((await q.poll({ dontBlock: true })).map((e) => e.person.user_id)).toEqual([onTime]);
      expect(await q.poll({ dontBlock: true })).toEqual([]);
    } finally {
      await deleteFutureEvents(realNow + 60_000);
    }
  });

  it("filters by event_types", async () => {
    const q = client(org.users.member);
    await q.register({ event_types: ["presence"] });
    await createUser();
    expect(await q.poll({ dontBlock: true })).toEqual([]);
  });

  it("assigns the same IDs to two concurrent polls of one queue", async () => {
    const q = client(org.users.member);
    await q.register({ event_types: ["realm_user"] });
    await createUser();
    await createUser();
    const params = { queue_id: q.queueId, last_event_id: -1, dont_block: true };
    const [a, b] = await Promise.all([q.call("GET", "/events", params), q.call("GET", "/events", params)]);
    expect(a.body.events.map((e: { id: number }) => e.id)).toEqual([0, 1]);
    expect(b.body.events).toEqual(a.body.events);
    expect(await getQueue(org.stack.deps, q.queueId!)).toMatchObject({ next_event_id: 2 });
  });

  it("registers a queue on the fly without queue_id", async () => {
    const res = await org.api(org.users.member, "GET", "/events", {
      dont_block: true,
      event_types: ["realm_user"],
    });
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([]);
    expect(typeof res.body.queue_id).toBe("string");
    const userId = await createUser();
    const next = await org.api(org.users.member, "GET", "/events", {
      queue_id: res.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(next.body.events).toMatchObject([{ type: "realm_user", op: "add", person: { user_id: userId } }]);
  });

  it("answers BAD_EVENT_QUEUE_ID after 10 minutes without activity, without waiting for the TTL", async () => {
    const q = client(org.users.member);
    await q.register({ event_types: ["realm_user"] });
    const stored = await getQueue(org.stack.deps, q.queueId!);
    expect(stored).toBeDefined();
    // The server's own registration time, not the test's clock: on a busy machine they may be seconds apart.
    const registeredAt = stored!.last_activity_ms;
    org.stack.deps.clock = { now: () => registeredAt + QUEUE_TIMEOUT_MS - 5_000 };
    expect((await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: -1, dont_block: true })).status).toBe(
      200,
    );
    // The poll above counts as activity; ten minutes after it the queue is gone.
    org.stack.deps.clock = { now: () => registeredAt + 2 * QUEUE_TIMEOUT_MS + 1_000 };
    const res = await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: -1, dont_block: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: `Bad event queue ID: ${q.queueId}`,
      code: "BAD_EVENT_QUEUE_ID",
      queue_id: q.queueId,
    });
  });

  it("refuses unknown queues with BAD_EVENT_QUEUE_ID and other users' queues as Zulip does", async () => {
    const unknown = await org.api(org.users.member, "GET", "/events", { queue_id: "1:nope", last_event_id: -1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "BAD_EVENT_QUEUE_ID", queue_id: "1:nope" });
    const q = client(org.users.member);
    await q.register({ event_types: ["realm_user"] });
    const foreign = await org.api(org.users.member2, "GET", "/events", {
      queue_id: q.queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ result: "error", msg: "You are not authorized to get events from this queue", code: "BAD_REQUEST" });
  });

  it("checks its parameters", async () => {
    const res = await org.api(org.users.member, "GET", "/events", { queue_id: "x", last_event_id: "abc" });
    expect(res.body).toEqual({ result: "error", msg: 'Argument "last_event_id" is not valid JSON.', code: "BAD_REQUEST" });
  });
});

describe("DELETE /events", () => {
  it("deletes the caller's queue; later polls get BAD_EVENT_QUEUE_ID", async () => {
    const q = client(org.users.member);
    await q.register({ event_types: ["realm_user"] });
    const other = await org.api(org.users.member2, "DELETE", "/events", { queue_id: q.queueId });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ result: "error", msg: "You are not authorized to access this queue", code: "BAD_REQUEST" });
    expect(await getQueue(org.stack.deps, q.queueId!)).toBeDefined();

    const res = await q.delete();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await getQueue(org.stack.deps, q.queueId!)).toBeUndefined();
    const after = await q.call("GET", "/events", { queue_id: q.queueId, last_event_id: -1, dont_block: true });
    expect(after.body).toMatchObject({ code: "BAD_EVENT_QUEUE_ID" });
    const again = await q.delete();
    expect(again.body).toMatchObject({ code: "BAD_EVENT_QUEUE_ID", queue_id: q.queueId });
  });

  it("requires queue_id", async () => {
    const res = await org.api(org.users.member, "DELETE", "/events", {});
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing 'queue_id' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "queue_id",
    });
  });
});

describe("settings events", () => {
  it("adds the legacy update_display_settings form for queues without user_settings_object", async () => {
    const legacy = client(org.users.member2);
    const modern = client(org.users.member2);
    await legacy.register({ event_types: ["user_settings", "update_display_settings", "update_global_notifications"] });
    await modern.register({
      event_types: ["user_settings", "update_display_settings", "update_global_notifications"],
      client_capabilities: { user_settings_object: true },
    });
    const res = await org.api(org.users.member2, "PATCH", "/settings", { twenty_four_hour_time: true, enable_sounds: false });
    expect(res.status).toBe(200);
    const legacyEvents = await legacy.poll({ dontBlock: true });
    expect(legacyEvents).toEqual([
      { type: "user_settings", op: "update", property: "twenty_four_hour_time", value: true, id: 0 },
      { type: "update_display_settings", user: org.users.member2.email, setting_name: "twenty_four_hour_time", setting: true, id: 1 },
      { type: "user_settings", op: "update", property: "enable_sounds", value: false, id: 2 },
      { type: "update_global_notifications", user: org.users.member2.email, notification_name: "enable_sounds", setting: false, id: 3 },
    ]);
    expect(await modern.poll({ dontBlock: true })).toEqual([
      { type: "user_settings", op: "update", property: "twenty_four_hour_time", value: true, id: 0 },
      { type: "user_settings", op: "update", property: "enable_sounds", value: false, id: 1 },
    ]);
  });
});
