import { describe, expect, it } from "vitest";
import { updateRealmFields } from "../../shared/data/realms.js";
import { BotType, Role } from "../../shared/domain/roles.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream } from "./streams-helpers.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const BOT_DOMAIN = "127.0.0.1";

let seq = 0;
/** Creates a bot through the API as `owner`; returns it as a test user. */
async function createBot(owner: TestUser, extra: Record<string, unknown> = {}): Promise<TestUser> {
  seq += 1;
  const short = `b${seq}`;
  const res = await org.api(owner, "POST", "/bots", { full_name: `Bot ${seq}`, short_name: short, ...extra });
  expect(res.body).toMatchObject({ result: "success" });
  return { id: res.body.user_id, email: `${short}-bot@${BOT_DOMAIN}`, apiKey: res.body.api_key, fullName: `Bot ${seq}`, role: Role.MEMBER };
}

async function setBotCreationPolicy(policy: number): Promise<void> {
  const settings = { ...(org.realm.settings ?? {}), bot_creation_policy: policy };
  await updateRealmFields(org.stack.deps, org.realm.id, { settings });
}

describe("POST /bots", () => {
  it("creates a generic bot owned by the caller and announces it", async () => {
    // Prepare
    const { member, member2, admin } = org.users;
    const cursors = await eventCursors(org, [member.id, member2.id, admin.id]);
    // Act
    const res = await org.api(member, "POST", "/bots", { full_name: "Deploy Bot", short_name: "deploy" });
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      user_id: expect.any(Number),
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      avatar_url: expect.any(String),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
    const bot = await storedUser(org, res.body.user_id);
    expect(bot).toMatchObject({
      delivery_email: `deploy-bot@${BOT_DOMAIN}`,
      full_name: "Deploy Bot",
      is_bot: true,
      bot_type: BotType.DEFAULT,
      bot_owner_id: member.id,
      is_active: true,
    });
    const wireBot = {
      user_id: bot.user_id,
      full_name: "Deploy Bot",
      api_key: res.body.api_key,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      avatar_url: res.body.avatar_url,
      owner_id: member.id,
      services: [],
      email: `deploy-bot@${BOT_DOMAIN}`,
      bot_type: 1,
      is_active: true,
    };
    for (const who of [member, admin]) {
      const events = await eventsAfter(org, who.id, cursors.get(who.id)!);
      expect(events.map((e) => `${e.type}/${e.op}`)).toEqual(["realm_user/add", "realm_bot/add"]);
      expect(events[0]!.person).toMatchObject({ user_id: bot.user_id, is_bot: true, bot_type: 1, bot_owner_id: member.id });
      expect(events[1]).toEqual({ type: "realm_bot", op: "add", bot: wireBot });
    }
    const other = await eventsAfter(org, member2.id, cursors.get(member2.id)!);
    expect(other.map((e) => `${e.type}/${e.op}`)).toEqual(["realm_user/add"]);
    // The new key works.
    const asBot = { id: bot.user_id, email: `deploy-bot@${BOT_DOMAIN}`, apiKey: res.body.api_key, fullName: "Deploy Bot", role: Role.MEMBER };
    const me = await org.api(asBot, "GET", "/users/me");
    expect(me.body).toMatchObject({ result: "success", user_id: bot.user_id, is_bot: true });
  });

  it("creates an incoming-webhook bot with default streams", async () => {
    await createStream(org, org.users.member, "bot defaults");
    const res = await org.api(org.users.member, "POST", "/bots", {
      full_name: "Hook",
      short_name: "hook",
      bot_type: BotType.INCOMING_WEBHOOK,
      default_sending_stream: "bot defaults",
      default_events_register_stream: "bot defaults",
      default_all_public_streams: true,
    });
    expect(res.body).toMatchObject({
      result: "success",
      default_sending_stream: "bot defaults",
      default_events_register_stream: "bot defaults",
      default_all_public_streams: true,
    });
    expect(await storedUser(org, res.body.user_id)).toMatchObject({ bot_type: 2, default_all_public_streams: true });
  });

  it("refuses what Zulip refuses, with its messages, writing nothing", async () => {
    const { member, guest, bot, admin } = org.users;
    const cases: [TestUser, Record<string, unknown>, string][] = [
      [guest, { full_name: "G", short_name: "g" }, "Not allowed for guest users"],
      [bot, { full_name: "B", short_name: "bb" }, "This endpoint does not accept bot requests."],
      [member, { full_name: "Empty", short_name: "  " }, "Bad name or username"],
      [member, { full_name: "Bad", short_name: "a b" }, "Bad name or username"],
      [member, { full_name: "Dup", short_name: "deploy" }, "Username already in use"],
      [member, { full_name: "Deploy Bot", short_name: "deploy2" }, "Name is already in use!"],
      [member, { full_name: "", short_name: "noname" }, "Name must not be empty!"],
      [member, { full_name: "Emb", short_name: "emb", bot_type: 4 }, "Invalid bot type"],
      [admin, { full_name: "Nine", short_name: "nine", bot_type: 9 }, "Invalid bot type"],
      [member, { full_name: "Nope", short_name: "nope", default_sending_stream: "no such stream" }, "Invalid channel name 'no such stream'"],
    ];
    for (const [caller, params, msg] of cases) {
      const res = await org.api(caller, "POST", "/bots", params);
      expect({ params, status: res.status, body: res.body }).toEqual({ params, status: 400, body: err(msg) });
    }
    const missing = await org.api(member, "POST", "/bots", { full_name: "X" });
    expect(missing.body).toEqual({ result: "error", msg: "Missing 'short_name' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "short_name" });
    const ids = (await org.api(admin, "GET", "/users")).body.members.map((u: { email: string }) => u.email);
    for (const short of ["g", "bb", "noname", "emb", "nine", "nope"]) expect(ids).not.toContain(`${short}-bot@${BOT_DOMAIN}`);
  });

  it("follows bot_creation_policy: admins only, or generic bots for admins only", async () => {
    try {
      await setBotCreationPolicy(3);
      const refused = await org.api(org.users.member, "POST", "/bots", { full_name: "P3", short_name: "p3", bot_type: 2 });
      expect(refused.body).toEqual(err("Must be an organization administrator"));
      const admin = await org.api(org.users.admin, "POST", "/bots", { full_name: "P3 admin", short_name: "p3a" });
      expect(admin.body.result).toBe("success");

      await setBotCreationPolicy(2);
      const generic = await org.api(org.users.member, "POST", "/bots", { full_name: "P2", short_name: "p2" });
      expect(generic.body).toEqual(err("Must be an organization administrator"));
      const incoming = await org.api(org.users.member, "POST", "/bots", { full_name: "P2 hook", short_name: "p2h", bot_type: 2 });
      expect(incoming.body.result).toBe("success");
    } finally {
      await setBotCreationPolicy(1);
    }
  });
});

describe("GET /bots", () => {
  it("lists the caller's own active bots only, administrators included", async () => {
    const owner = await org.createUser("lister");
    const first = await createBot(owner);
    const second = await createBot(owner);
    await org.api(owner, "DELETE", `/bots/${second.id}`);
    const mine = await org.api(owner, "GET", "/bots");
    expect(mine.body).toEqual({
      result: "success",
      msg: "",
      bots: [
        {
          username: first.email,
          full_name: first.fullName,
          api_key: first.apiKey,
          avatar_url: expect.any(String),
          default_sending_stream: null,
          default_events_register_stream: null,
          default_all_public_streams: false,
        },
      ],
    });
    const admin = await org.api(org.users.admin, "GET", "/bots");
    expect(admin.body.bots.map((b: { username: string }) => b.username)).not.toContain(first.email);
  });
});

describe("PATCH /bots/{bot_id}", () => {
  it("renames a bot for its owner, with realm_user and realm_bot updates", async () => {
    const bot = await createBot(org.users.member);
    const cursors = await eventCursors(org, [org.users.member.id, org.users.member2.id]);
    const res = await org.api(org.users.member, "PATCH", `/bots/${bot.id}`, { full_name: "Renamed Bot" });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      full_name: "Renamed Bot",
      avatar_url: expect.any(String),
      service_interface: 1,
      service_payload_url: null,
      config_data: null,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      bot_owner: org.users.member.email,
    });
    expect((await storedUser(org, bot.id)).full_name).toBe("Renamed Bot");
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: bot.id, full_name: "Renamed Bot" } },
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, full_name: "Renamed Bot" } },
    ]);
    expect(await eventsAfter(org, org.users.member2.id, cursors.get(org.users.member2.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: bot.id, full_name: "Renamed Bot" } },
    ]);
  });

  it("sets and clears default streams", async () => {
    await createStream(org, org.users.member, "patch defaults");
    const bot = await createBot(org.users.member);
    const cursor = await eventCursors(org, [org.users.member.id]);
    const set = await org.api(org.users.member, "PATCH", `/bots/${bot.id}`, {
      default_sending_stream: "patch defaults",
      default_all_public_streams: true,
    });
    expect(set.body).toMatchObject({ default_sending_stream: "patch defaults", default_all_public_streams: true });
    const cleared = await org.api(org.users.member, "PATCH", `/bots/${bot.id}`, { default_sending_stream: "" });
    expect(cleared.body).toMatchObject({ default_sending_stream: null });
    expect(await eventsAfter(org, org.users.member.id, cursor.get(org.users.member.id)!)).toEqual([
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, default_sending_stream: "patch defaults" } },
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, default_all_public_streams: true } },
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, default_sending_stream: null } },
    ]);
  });

  it("moves a bot to a new owner as Zulip announces it", async () => {
    const bot = await createBot(org.users.member);
    const { member, member2, admin, owner } = org.users;
    const cursors = await eventCursors(org, [member.id, member2.id, admin.id, owner.id]);
    const res = await org.api(admin, "PATCH", `/bots/${bot.id}`, { bot_owner_id: member2.id });
    expect(res.body).toMatchObject({ result: "success", bot_owner: member2.email });
    expect((await storedUser(org, bot.id)).bot_owner_id).toBe(member2.id);
    const ownerUpdate = { type: "realm_user", op: "update", person: { user_id: bot.id, bot_owner_id: member2.id } };
    expect(await eventsAfter(org, member.id, cursors.get(member.id)!)).toEqual([
      { type: "realm_bot", op: "delete", bot: { user_id: bot.id } },
      ownerUpdate,
    ]);
    const toNew = await eventsAfter(org, member2.id, cursors.get(member2.id)!);
    expect(toNew.map((e) => `${e.type}/${e.op}`)).toEqual(["realm_bot/add", "realm_user/update"]);
    expect(toNew[0]!.bot).toMatchObject({ user_id: bot.id, owner_id: member2.id });
    expect(toNew[1]).toEqual(ownerUpdate);
    expect(await eventsAfter(org, admin.id, cursors.get(admin.id)!)).toEqual([
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, owner_id: member2.id } },
      ownerUpdate,
    ]);
    // The previous owner may not administer it any more.
    const refused = await org.api(member, "PATCH", `/bots/${bot.id}`, { full_name: "Mine again" });
    expect(refused.body).toEqual(err("Insufficient permission"));
  });

  it("refuses with Zulip's messages and writes nothing", async () => {
    const bot = await createBot(org.users.member);
    const gone = await org.createUser("gone-owner");
    await org.api(org.users.admin, "DELETE", `/users/${gone.id}`);
    const { member, member2, admin, owner } = org.users;
    const cases: [TestUser, number, Record<string, unknown>, string][] = [
      [member2, bot.id, { full_name: "Stolen" }, "Insufficient permission"],
      [member2, bot.id, { default_sending_stream: "missing stream" }, "Insufficient permission"],
      [member, 999999, { full_name: "X" }, "No such bot"],
      [member, member2.id, { full_name: "X" }, "No such bot"],
      [member, bot.id, { full_name: "Deploy Bot" }, "Name is already in use!"],
      [member, bot.id, { role: Role.MODERATOR }, "Must be an organization administrator"],
      [admin, bot.id, { role: Role.OWNER }, "Must be an organization owner"],
      [member, bot.id, { bot_owner_id: 999999 }, "Failed to change owner, no such user"],
      [member, bot.id, { bot_owner_id: gone.id }, "Failed to change owner, user is deactivated"],
      [member, bot.id, { bot_owner_id: org.users.bot.id }, "Failed to change owner, bots can't own other bots"],
      [member, bot.id, { default_sending_stream: "missing stream" }, "Invalid channel name 'missing stream'"],
      [member, bot.id, { full_name: "Renamed", default_sending_stream: "missing stream" }, "Invalid channel name 'missing stream'"],
    ];
    for (const [caller, id, params, msg] of cases) {
      const res = await org.api(caller, "PATCH", `/bots/${id}`, params);
      expect({ params, status: res.status, body: res.body }).toEqual({ params, status: 400, body: err(msg) });
    }
    const after = await storedUser(org, bot.id);
    expect(after).toMatchObject({ full_name: bot.fullName, role: Role.MEMBER, bot_owner_id: member.id });
    // An owner may change a bot's role.
    const role = await org.api(owner, "PATCH", `/bots/${bot.id}`, { role: Role.MODERATOR });
    expect(role.body.result).toBe("success");
    expect((await storedUser(org, bot.id)).role).toBe(Role.MODERATOR);
  });
});

describe("DELETE /bots/{bot_id}", () => {
  it("deactivates a bot for its owner; its key then fails with 401", async () => {
    const bot = await createBot(org.users.member);
    const refused = await org.api(org.users.member2, "DELETE", `/bots/${bot.id}`);
    expect(refused.body).toEqual(err("Insufficient permission"));
    const human = await org.api(org.users.member, "DELETE", `/bots/${org.users.member2.id}`);
    expect(human.body).toEqual(err("No such bot"));
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await org.api(org.users.member, "DELETE", `/bots/${bot.id}`);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, bot.id)).is_active).toBe(false);
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: bot.id, is_active: false } },
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, is_active: false } },
    ]);
    const me = await org.api(bot, "GET", "/users/me");
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ result: "error", msg: "Account is deactivated", code: "UNAUTHORIZED" });
    // Again: nothing more to do.
    expect((await org.api(org.users.admin, "DELETE", `/bots/${bot.id}`)).body).toEqual({ result: "success", msg: "" });
  });
});

describe("POST /bots/{bot_id}/api_key/regenerate", () => {
  it("gives the bot a new key; the old one stops working", async () => {
    const bot = await createBot(org.users.member);
    const refused = await org.api(org.users.member2, "POST", `/bots/${bot.id}/api_key/regenerate`);
    expect(refused.body).toEqual(err("Insufficient permission"));
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await org.api(org.users.admin, "POST", `/bots/${bot.id}/api_key/regenerate`);
    expect(res.body).toEqual({ result: "success", msg: "", api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect(res.body.api_key).not.toBe(bot.apiKey);
    expect((await org.api(bot, "GET", "/users/me")).status).toBe(401);
    expect((await org.api({ ...bot, apiKey: res.body.api_key }, "GET", "/users/me")).status).toBe(200);
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: res.body.api_key } },
    ]);
  });
});

describe("incoming-webhook bots", () => {
  it("may send messages but not use other endpoints", async () => {
    const hook = await createBot(org.users.member, { bot_type: BotType.INCOMING_WEBHOOK });
    const other = await org.api(hook, "GET", "/users/me");
    expect(other.status).toBe(400);
    expect(other.body).toEqual(err("This API is not available to incoming webhook bots."));
    const send = await org.api(hook, "POST", "/messages", { type: "direct", to: [org.users.member.id], content: "hi" });
    expect(send.body).toMatchObject({ result: "success", id: expect.any(Number) });
  });
});

describe("POST /register realm_bots", () => {
  it("lists the bots the caller administers, as they are after changes", async () => {
    await createStream(org, org.users.member, "register defaults");
    const bot = await createBot(org.users.member);
    await org.api(org.users.member, "PATCH", `/bots/${bot.id}`, { full_name: "Registered Bot", default_sending_stream: "register defaults" });
    const fetch = async (who: TestUser) =>
      (await org.api(who, "POST", "/register", { fetch_event_types: ["realm_bot", "realm_incoming_webhook_bots"] })).body;
    const mine = await fetch(org.users.member);
    expect(mine.realm_bots.find((b: { user_id: number }) => b.user_id === bot.id)).toMatchObject({
      full_name: "Registered Bot",
      default_sending_stream: "register defaults",
      owner_id: org.users.member.id,
      is_active: true,
    });
    expect(mine.realm_incoming_webhook_bots).toContainEqual({ name: "json", display_name: "JSON", all_event_types: null, config: {} });
    const others = await fetch(org.users.member2);
    expect(others.realm_bots.map((b: { user_id: number }) => b.user_id)).not.toContain(bot.id);
    const admin = await fetch(org.users.admin);
    expect(admin.realm_bots.map((b: { user_id: number }) => b.user_id)).toContain(bot.id);
  });
});
