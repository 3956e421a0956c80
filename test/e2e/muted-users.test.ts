import { describe, expect, it } from "vitest";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { storedUser } from "./users-support.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

function client(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

async function mutedUsersOf(user: TestUser): Promise<{ id: number; timestamp: number }[]> {
  const res = await org.api(user, "POST", "/register", { fetch_event_types: ["muted_users"] });
  expect(res.status).toBe(200);
  return res.body.muted_users;
}

let botId: number | undefined;

/** The Notification Bot's ID: it is created by its first notice (here, a topic move's). */
async function notificationBotId(): Promise<number> {
  if (botId !== undefined) return botId;
  const { member } = org.users;
  await org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "muting-bot" }] });
  const sent = await org.api(member, "POST", "/messages", { type: "stream", to: "muting-bot", topic: "a", content: "x" });
  await org.api(member, "PATCH", `/messages/${sent.body.id}`, { topic: "b", propagate_mode: "change_all" });
  const reg = await org.api(member, "POST", "/register", { fetch_event_types: ["realm_user"] });
  botId = reg.body.cross_realm_bots[0].user_id as number;
  return botId;
}

const path = (id: number | string) => `/users/me/muted_users/${id}`;

describe("POST /users/me/muted_users/{muted_user_id}", () => {
  it("mutes a user, lists the mute in register and tells the muter's own clients only", async () => {
    // Prepare
    const me = await org.createUser("muter-one");
    const target = await org.createUser("muted-one");
    const mine = client(me);
    const theirs = client(target);
    await mine.register({ event_types: ["muted_users"] });
    await theirs.register({ event_types: ["muted_users"] });
    const before = Math.floor(Date.now() / 1000);
    // Act
    const res = await org.api(me, "POST", path(target.id));
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const listed = await mutedUsersOf(me);
    expect(listed).toEqual([{ id: target.id, timestamp: expect.any(Number) }]);
    expect(listed[0]!.timestamp).toBeGreaterThanOrEqual(before - 1);
    const event = await mine.waitFor((e) => e.type === "muted_users");
    expect(event).toEqual({ id: expect.any(Number), type: "muted_users", muted_users: listed });
    expect((await theirs.poll({ dontBlock: true })).filter((e) => e.type === "muted_users")).toEqual([]);
    expect([...((await storedUser(org, target.id)).muted_by_ids ?? [])]).toEqual([me.id]);
    expect(await mutedUsersOf(target)).toEqual([]);
  });

  it("mutes bots and deactivated users", async () => {
    const me = await org.createUser("muter-bots");
    const gone = await org.createUser("muted-gone");
    expect((await org.api(org.users.admin, "DELETE", `/users/${gone.id}`)).status).toBe(200);
    expect((await org.api(me, "POST", path(org.users.bot.id))).body).toEqual({ result: "success", msg: "" });
    expect((await org.api(me, "POST", path(gone.id))).body).toEqual({ result: "success", msg: "" });
    expect((await mutedUsersOf(me)).map((m) => m.id)).toEqual([org.users.bot.id, gone.id].sort((a, b) => a - b));
  });

  it("refuses muting oneself, an unknown user, a system bot and a user already muted, writing nothing", async () => {
    const me = await org.createUser("muter-errors");
    const target = await org.createUser("muted-twice");
    const systemBotId = await notificationBotId();

    const self = await org.api(me, "POST", path(me.id));
    expect(self.status).toBe(400);
    expect(self.body).toEqual(err("Cannot mute self"));
    expect((await org.api(me, "POST", path(999999))).body).toEqual(err("No such user"));
    const bot = await org.api(me, "POST", path(systemBotId));
    expect(bot.status).toBe(400);
    expect(bot.body).toEqual(err("No such user"));
    expect(await mutedUsersOf(me)).toEqual([]);

    await org.api(me, "POST", path(target.id));
    const first = await mutedUsersOf(me);
    const again = await org.api(me, "POST", path(target.id));
    expect(again.status).toBe(400);
    expect(again.body).toEqual(err("User already muted"));
    expect(await mutedUsersOf(me)).toEqual(first);
  });
});

describe("DELETE /users/me/muted_users/{muted_user_id}", () => {
  it("unmutes, sends the new list and clears the reverse entry", async () => {
    const me = await org.createUser("unmuter");
    const a = await org.createUser("unmuted-a");
    const b = await org.createUser("unmuted-b");
    await org.api(me, "POST", path(a.id));
    await org.api(me, "POST", path(b.id));
    const mine = client(me);
    await mine.register({ event_types: ["muted_users"] });

    const res = await org.api(me, "DELETE", path(a.id));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const listed = await mutedUsersOf(me);
    expect(listed.map((m) => m.id)).toEqual([b.id]);
    const event = await mine.waitFor((e) => e.type === "muted_users");
    expect(event.muted_users).toEqual(listed);
    expect((await storedUser(org, a.id)).muted_by_ids).toBeUndefined();
  });

  it("refuses an unknown user, a system bot and a user who is not muted", async () => {
    const me = await org.createUser("unmuter-errors");
    const target = await org.createUser("never-muted");
    const systemBotId = await notificationBotId();
    expect((await org.api(me, "DELETE", path(999999))).body).toEqual(err("No such user"));
    expect((await org.api(me, "DELETE", path(systemBotId))).body).toEqual(err("No such user"));
    const res = await org.api(me, "DELETE", path(target.id));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("User is not muted"));
  });
});

describe("messages from a muted user", () => {
  async function streamWith(name: string, members: TestUser[]): Promise<void> {
    const res = await org.api(members[0]!, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name }],
      principals: members.map((u) => u.id),
    });
    expect(res.body).toMatchObject({ result: "success" });
  }
  async function flagsOf(user: TestUser, messageId: number): Promise<string[] | undefined> {
    return (await getUserMessages(org.stack.deps, user.id, [messageId])).get(messageId)?.flags;
  }

  it("arrive read for the muter (stream and direct), unread for others, and unread again after unmuting", async () => {
    const sender = await org.createUser("loud-sender");
    const muter = await org.createUser("quiet-muter");
    const other = await org.createUser("other-reader");
    await streamWith("muting-stream", [sender, muter, other]);
    await org.api(muter, "POST", path(sender.id));
    const queue = client(muter);
    await queue.register({ event_types: ["message"] });

    const streamMsg = await org.api(sender, "POST", "/messages", { type: "stream", to: "muting-stream", topic: "t", content: "hi" });
    const dm = await org.api(sender, "POST", "/messages", { type: "direct", to: [muter.id], content: "psst" });

    expect(await flagsOf(muter, streamMsg.body.id)).toEqual(["read"]);
    expect(await flagsOf(muter, dm.body.id)).toEqual(["read"]);
    expect(await flagsOf(other, streamMsg.body.id)).toEqual([]);
    const event = await queue.waitFor((e) => e.type === "message" && e.message.id === dm.body.id);
    expect(event.flags).toEqual(["read"]);

    await org.api(muter, "DELETE", path(sender.id));
    const later = await org.api(sender, "POST", "/messages", { type: "stream", to: "muting-stream", topic: "t", content: "again" });
    expect(await flagsOf(muter, later.body.id)).toEqual([]);
  });

  it("already received: muting marks the muter's unread messages from that user read, with one flags event", async () => {
    const sender = await org.createUser("backlog-sender");
    const bystander = await org.createUser("backlog-bystander");
    const muter = await org.createUser("backlog-muter");
    await streamWith("muting-backlog", [sender, bystander, muter]);
    const post = async (from: TestUser) =>
      (await org.api(from, "POST", "/messages", { type: "stream", to: "muting-backlog", topic: "t", content: "x" })).body.id as number;
    const first = await post(sender);
    const kept = await post(bystander);
    const second = await post(sender);
    const queue = client(muter);
    await queue.register({ event_types: ["update_message_flags", "muted_users"] });

    expect((await org.api(muter, "POST", path(sender.id))).body).toEqual({ result: "success", msg: "" });

    expect(await flagsOf(muter, first)).toEqual(["read"]);
    expect(await flagsOf(muter, second)).toEqual(["read"]);
    expect(await flagsOf(muter, kept)).toEqual([]);
    expect(await flagsOf(bystander, first)).toEqual([]);
    const events = (await queue.poll({ dontBlock: true })).filter((e) => e.type !== "heartbeat");
    expect(events.map((e) => e.type)).toEqual(["muted_users", "update_message_flags"]);
    expect(events[1]).toMatchObject({ op: "add", flag: "read", messages: [first, second], all: false });

    // Nothing unread from the muted user: no flags event.
    const quiet = await org.createUser("backlog-quiet");
    const again = client(muter);
    await again.register({ event_types: ["update_message_flags"] });
    await org.api(muter, "POST", path(quiet.id));
    expect((await again.poll({ dontBlock: true })).filter((e) => e.type !== "heartbeat")).toEqual([]);
  });
});
