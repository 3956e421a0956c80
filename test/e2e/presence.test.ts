import { afterEach, describe, expect, it } from "vitest";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { keys } from "../../shared/data/keys.js";
import { getPresence } from "../../shared/data/presence.js";
import { systemClock } from "../../shared/deps.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

function client(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

/** Fixes the server's clock at `ms` (the deps object is shared with the in-process server). */
function setClock(ms: number): void {
  org.stack.deps.clock = { now: () => ms };
}

/**
 * Fake times lie in the past: event-log keys carry the writer's clock, and a
 * key from the future would move queues' cursors past events written later
 * at the real time (as real clock skew beyond the look-back window would).
 */
const HOUR_AGO = () => Date.now() - 3_600_000;

afterEach(() => {
  org.stack.deps.clock = systemClock;
});

const ping = (user: TestUser, params: Record<string, unknown> = {}) =>
  org.api(user, "POST", "/users/me/presence", { status: "active", ...params });

describe("POST /users/me/presence", () => {
  it("records the ping and returns everyone's presence keyed by email", async () => {
    const user = await org.createUser("presence-a");
    // A fixed clock: on a busy machine the ping's write and the presence read may be seconds apart.
    const t0 = HOUR_AGO();
    setClock(t0);
    const res = await ping(user);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: "success",
      msg: "",
      zephyr_mirror_active: false,
      server_timestamp: expect.any(Number),
      presence_last_update_id: expect.any(Number),
    });
    const mine = res.body.presences[user.email];
    expect(mine).toEqual({
      aggregated: { client: "website", status: "active", timestamp: expect.any(Number) },
      website: { client: "website", status: "active", timestamp: mine.aggregated.timestamp, pushable: false },
    });
    expect(mine.aggregated.timestamp).toBe(Math.floor(t0 / 1000));
    expect(res.body.server_timestamp).toBe(t0 / 1000);
  });

  it("answers ping_only with the bare envelope", async () => {
    const user = await org.createUser("presence-b");
    const res = await ping(user, { ping_only: true, new_user_input: true });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await getPresence(org.stack.deps, org.realm.id, user.id)).toMatchObject({ user_id: user.id });
  });

  it("uses the modern format keyed by user ID with slim_presence or last_update_id", async () => {
    const user = await org.createUser("presence-c");
    const slim = await ping(user, { slim_presence: true });
    expect(slim.body.presences[String(user.id)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    expect(slim.body.presences[user.email]).toBeUndefined();
    const modern = await ping(user, { last_update_id: -1 });
    expect(modern.body.presences[String(user.id)]).toBeDefined();
  });

  it("returns only newer presence for a last_update_id", async () => {
    const user = await org.createUser("presence-d");
    const t0 = HOUR_AGO();
    setClock(t0);
    await ping(user, { ping_only: true });
    setClock(t0 + 10_000);
    const all = await ping(org.users.owner, { last_update_id: -1 });
    expect(all.body.presences[String(user.id)]).toBeDefined();
    // Five seconds behind the newest update seen (the owner's own ping at t0 + 10 s).
    expect(all.body.presence_last_update_id).toBe(t0 + 5_000);
    setClock(t0 + 20_000);
    const newer = await org.api(org.users.owner, "POST", "/users/me/presence", {
      status: "active",
      last_update_id: all.body.presence_last_update_id,
    });
    expect(newer.body.presences[String(user.id)]).toBeUndefined();
    expect(newer.body.presences[String(org.users.owner.id)]).toBeDefined();
    expect(newer.body.presence_last_update_id).toBe(t0 + 15_000);
  });

  it("writes at most once a minute per user, whatever the number of pings", async () => {
    const user = await org.createUser("presence-e");
    const t0 = HOUR_AGO();
    setClock(t0);
    await ping(user, { ping_only: true });
    const first = await getPresence(org.stack.deps, org.realm.id, user.id);
    setClock(t0 + 30_000);
    await ping(user, { ping_only: true });
    await ping(user, { ping_only: true, status: "idle" });
    expect(await getPresence(org.stack.deps, org.realm.id, user.id)).toEqual(first);
    setClock(t0 + 61_000);
    await ping(user, { ping_only: true });
    const later = await getPresence(org.stack.deps, org.realm.id, user.id);
    expect(later!.last_active_time).toBe(Math.floor((t0 + 61_000) / 1000));
    expect(later!.last_update_id).toBe(t0 + 61_000);
  });

  it("records an idle ping as connected but not active", async () => {
    const user = await org.createUser("presence-f");
    await ping(user, { status: "idle", ping_only: true });
    const row = await getPresence(org.stack.deps, org.realm.id, user.id);
    expect(row!.last_active_time).toBeUndefined();
    expect(row!.last_connected_time).toBeGreaterThan(0);
  });

  it("records nothing for a user who turned presence off", async () => {
    const user = await org.createUser("presence-g");
    expect((await org.api(user, "PATCH", "/settings", { presence_enabled: false })).status).toBe(200);
    await ping(user, { ping_only: true });
    expect(await getPresence(org.stack.deps, org.realm.id, user.id)).toBeUndefined();
  });

  it("refuses bots: they have no presence", async () => {
    const res = await org.api(org.users.bot, "POST", "/users/me/presence", { status: "active" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "This endpoint does not accept bot requests.", code: "BAD_REQUEST" });
    expect(await getPresence(org.stack.deps, org.realm.id, org.users.bot.id)).toBeUndefined();
  });

  it("refuses a bad status and a missing one, writing nothing", async () => {
    const user = await org.createUser("presence-h");
    const bad = await org.api(user, "POST", "/users/me/presence", { status: "away" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: "error", msg: "Invalid status: away", code: "BAD_REQUEST" });
    const missing = await org.api(user, "POST", "/users/me/presence", {});
    expect(missing.body).toEqual({
      result: "error",
      msg: "Missing 'status' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "status",
    });
    expect(await getPresence(org.stack.deps, org.realm.id, user.id)).toBeUndefined();
  });
});

describe("presence events", () => {
  it("tells the organization when a user appears or comes back online, not on every ping", async () => {
    const user = await org.createUser("presence-events");
    const watcher = client(org.users.member);
    await watcher.register({ event_types: ["presence"] });
    const slimWatcher = client(org.users.member2);
    await slimWatcher.register({ event_types: ["presence"], slim_presence: true });

    await ping(user, { ping_only: true });
    const [first] = await watcher.poll({ dontBlock: true });
    const row = await getPresence(org.stack.deps, org.realm.id, user.id);
    expect(first).toEqual({
      type: "presence",
      id: 0,
      user_id: user.id,
      email: user.email,
      server_timestamp: row!.last_update_id / 1000,
      presence: {
        website: { client: "website", status: "active", timestamp: row!.last_active_time, pushable: false },
      },
    });
    const [slim] = await slimWatcher.poll({ dontBlock: true });
    expect(slim).not.toHaveProperty("email");
    expect(slim).toMatchObject({ type: "presence", user_id: user.id });

    await ping(user, { ping_only: true });
    expect(await watcher.poll({ dontBlock: true })).toEqual([]);

    // Away for five minutes (the stored presence says so), then back: online again.
    const away = row!.last_active_time! - 300;
    await org.stack.deps.db.send(
      new UpdateCommand({
        TableName: org.stack.deps.table,
        Key: keys.presence(org.realm.id, user.id),
        UpdateExpression: "SET last_active_time = :t, last_connected_time = :t",
        ExpressionAttributeValues: { ":t": away },
      }),
    );
    await ping(user, { ping_only: true });
    expect(await watcher.poll({ dontBlock: true })).toMatchObject([{ type: "presence", id: 1, user_id: user.id }]);
  });
});

describe("GET /realm/presence", () => {
  it("returns active humans' presence keyed by email", async () => {
    const user = await org.createUser("presence-realm");
    await ping(user, { ping_only: true });
    await ping(org.users.bot, { ping_only: true });
    const res = await org.api(org.users.guest, "GET", "/realm/presence");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["msg", "presences", "result", "server_timestamp"]);
    expect(res.body.presences[user.email]).toMatchObject({ aggregated: { status: "active" } });
    expect(res.body.presences[org.users.bot.email]).toBeUndefined();
  });
});

describe("GET /users/{user_id_or_email}/presence", () => {
  it("returns one user's presence by ID or email, offline once stale", async () => {
    const user = await org.createUser("presence-one");
    const t0 = Date.now();
    setClock(t0);
    await ping(user, { ping_only: true });
    const byId = await org.api(org.users.member, "GET", `/users/${user.id}/presence`);
    expect(byId.body).toEqual({
      result: "success",
      msg: "",
      presence: {
        website: { status: "active", timestamp: Math.floor(t0 / 1000) },
        aggregated: { status: "active", timestamp: Math.floor(t0 / 1000) },
      },
    });
    const byEmail = await org.api(org.users.member, "GET", `/users/${encodeURIComponent(user.email)}/presence`);
    expect(byEmail.body.presence).toEqual(byId.body.presence);

    setClock(t0 + 3_600_000);
    const stale = await org.api(org.users.member, "GET", `/users/${user.id}/presence`);
    expect(stale.body.presence.aggregated).toEqual({ status: "offline", timestamp: Math.floor(t0 / 1000) });
    expect(stale.body.presence.website).toEqual({ status: "idle", timestamp: Math.floor(t0 / 1000) });
  });

  it("refuses bots, users without presence and unknown users", async () => {
    const bot = await org.api(org.users.member, "GET", `/users/${org.users.bot.id}/presence`);
    expect(bot.body).toEqual({ result: "error", msg: "Presence is not supported for bot users.", code: "BAD_REQUEST" });
    const quiet = await org.createUser("presence-quiet");
    const none = await org.api(org.users.member, "GET", `/users/${quiet.id}/presence`);
    expect(none.body).toEqual({ result: "error", msg: `No presence data for ${quiet.id}`, code: "BAD_REQUEST" });
    const unknown = await org.api(org.users.member, "GET", "/users/999999/presence");
    expect(unknown.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
  });
});
