import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import zulipInit from "zulip-js";
import { writeZuliprc } from "../../infra/local/bootstrap.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const setStatus = (user: TestUser, params: Record<string, unknown>) => org.api(user, "POST", "/users/me/status", params);
const getStatus = (user: TestUser, userId: number | string) => org.api(user, "GET", `/users/${userId}/status`);

async function registeredStatuses(user: TestUser): Promise<Record<string, unknown>> {
  const res = await org.api(user, "POST", "/register", { fetch_event_types: JSON.stringify(["user_status"]) });
  expect(res.status).toBe(200);
  return res.body.user_status;
}

function client(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

describe("POST /users/me/status", () => {
  it("sets text and emoji, tells every active user, and shows in register and GET", async () => {
    const me = await org.createUser("status-setter");
    const cursors = await eventCursors(org, [me.id, org.users.guest.id]);
    const res = await setStatus(me, { status_text: "  on vacation ", emoji_name: "car" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const status = { status_text: "on vacation", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" };
    const event = { type: "user_status", user_id: me.id, ...status };
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([event]);
    expect(await eventsAfter(org, org.users.guest.id, cursors.get(org.users.guest.id)!)).toEqual([event]);
    expect((await getStatus(org.users.member, me.id)).body).toEqual({ result: "success", msg: "", status });
    expect((await registeredStatuses(org.users.member))[String(me.id)]).toEqual(status);
  });

  it("changes only the passed parts; an empty text clears the text, an empty emoji name the emoji", async () => {
    const me = await org.createUser("status-partial");
    await setStatus(me, { status_text: "busy", emoji_name: "car" });
    await setStatus(me, { status_text: "lunch" });
    expect((await getStatus(me, me.id)).body.status).toEqual({
      status_text: "lunch",
      emoji_name: "car",
      emoji_code: "1f697",
      reaction_type: "unicode_emoji",
    });
    const cursors = await eventCursors(org, [me.id]);
    await setStatus(me, { emoji_name: "" });
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([
      { type: "user_status", user_id: me.id, emoji_name: "", emoji_code: "", reaction_type: "unicode_emoji" },
    ]);
    expect((await getStatus(me, me.id)).body.status).toEqual({ status_text: "lunch" });
    await setStatus(me, { status_text: "" });
    expect((await getStatus(me, me.id)).body.status).toEqual({});
    // A cleared status is the default one: register leaves the user out.
    expect(await registeredStatuses(me)).not.toHaveProperty(String(me.id));
  });

  it("accepts an explicit emoji code and type, and Zulip's extra emoji", async () => {
    const me = await org.createUser("status-codes");
    const res = await setStatus(me, { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await getStatus(me, me.id)).body.status).toEqual({
      emoji_name: "zulip",
      emoji_code: "zulip",
      reaction_type: "zulip_extra_emoji",
    });
    await setStatus(me, { emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" });
    expect((await getStatus(me, me.id)).body.status.emoji_code).toBe("1f697");
  });

  it("keeps away as the inverse of presence_enabled, with a user_settings event to the user only", async () => {
    const me = await org.createUser("status-away");
    const cursors = await eventCursors(org, [me.id, org.users.member.id]);
    const res = await setStatus(me, { away: true });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, me.id)).settings).toEqual({ presence_enabled: false });
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([
      { type: "user_settings", op: "update", property: "presence_enabled", value: false },
      { type: "user_status", user_id: me.id, away: true },
    ]);
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "user_status", user_id: me.id, away: true },
    ]);
    expect((await getStatus(me, me.id)).body.status).toEqual({ away: true });
    expect((await registeredStatuses(me))[String(me.id)]).toEqual({ away: true });
    const reg = await org.api(me, "POST", "/register", { fetch_event_types: JSON.stringify(["user_settings"]) });
    expect(reg.body.user_settings.presence_enabled).toBe(false);

    await setStatus(me, { away: false });
    expect((await storedUser(org, me.id)).settings).toEqual({});
    expect((await getStatus(me, me.id)).body.status).toEqual({});
  });

  it("lets guests and bots set their own status", async () => {
    for (const user of [org.users.guest, org.users.bot]) {
      const res = await setStatus(user, { status_text: `${user.id} here` });
      expect(res.body).toEqual({ result: "success", msg: "" });
      expect((await getStatus(org.users.member, user.id)).body.status).toEqual({ status_text: `${user.id} here` });
    }
  });

  it.each([
    [{}, "Client did not pass any new values."],
    [{ emoji_code: "1f697" }, "Client did not pass any new values."],
    [{ status_text: "x".repeat(61) }, "status_text is too long (limit: 60 characters)"],
    [{ status_text: "x", emoji_code: "1f697" }, "Client must pass emoji_name if they pass either emoji_code or reaction_type."],
    [{ status_text: "x", reaction_type: "unicode_emoji" }, "Client must pass emoji_name if they pass either emoji_code or reaction_type."],
    [{ emoji_name: "no_such_emoji_here" }, "Emoji 'no_such_emoji_here' does not exist"],
    [{ emoji_name: "house", emoji_code: "1f697", reaction_type: "unicode_emoji" }, "Invalid emoji name."],
    [{ emoji_name: "party", emoji_code: "1", reaction_type: "realm_emoji" }, "Invalid custom emoji."],
  ])("refuses %j with its error and writes nothing", async (params, msg) => {
    const me = await org.createUser(`status-bad-${Math.random().toString(36).slice(2, 8)}`);
    const cursors = await eventCursors(org, [me.id]);
    const res = await setStatus(me, params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err(msg));
    const stored = await storedUser(org, me.id);
    expect(stored.status_timestamp).toBeUndefined();
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([]);
  });

  it("counts characters, not bytes: 60 emoji characters fit", async () => {
    const me = await org.createUser("status-long");
    const text = "🚗".repeat(60);
    expect((await setStatus(me, { status_text: text })).body).toEqual({ result: "success", msg: "" });
    expect((await getStatus(me, me.id)).body.status).toEqual({ status_text: text });
  });

  it("reaches another user's event queue", async () => {
    const me = await org.createUser("status-queue");
    const watcher = client(org.users.member2);
    await watcher.register({ event_types: JSON.stringify(["user_status"]) });
    await setStatus(me, { status_text: "watch me" });
    const event = await watcher.waitFor((e) => e.type === "user_status" && e.user_id === me.id);
    expect(event).toEqual({ id: expect.any(Number), type: "user_status", user_id: me.id, status_text: "watch me" });
    await watcher.delete();
  });
});

describe("GET /users/{user_id}/status", () => {
  it("answers {} for a user who never set a status", async () => {
    expect((await getStatus(org.users.member, org.users.moderator.id)).body).toEqual({ result: "success", msg: "", status: {} });
  });

  it("finds deactivated users", async () => {
    const gone = await org.createUser("status-gone");
    await setStatus(gone, { status_text: "farewell" });
    expect((await org.api(org.users.admin, "DELETE", `/users/${gone.id}`)).status).toBe(200);
    expect((await getStatus(org.users.member, gone.id)).body.status).toEqual({ status_text: "farewell" });
    // register lists active users only.
    expect(await registeredStatuses(org.users.member)).not.toHaveProperty(String(gone.id));
  });

  it("refuses an unknown user", async () => {
    const res = await getStatus(org.users.member, 987654);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("No such user"));
  });
});

describe("user status through zulip-js", () => {
  it("sets and reads a status with callEndpoint", async () => {
    const me = await org.createUser("status-zulipjs");
    const dir = await mkdtemp(join(tmpdir(), "zuliprc-"));
    const path = join(dir, "zuliprc");
    await writeZuliprc(path, { site: org.url, email: me.email, apiKey: me.apiKey });
    const zulip = await zulipInit({ zuliprc: path });
    const set = await zulip.callEndpoint("/users/me/status", "POST", { status_text: "via zulip-js", emoji_name: "car" });
    expect(set).toEqual({ result: "success", msg: "" });
    const got = await zulip.callEndpoint(`/users/${me.id}/status`, "GET", {});
    expect(got).toEqual({
      result: "success",
      msg: "",
      status: { status_text: "via zulip-js", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" },
    });
  });
});
