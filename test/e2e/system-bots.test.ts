/**
 * System bots (Zulip's cross-realm bots): the organization's Notification
 * Bot, created on its first notice, is listed in `POST /register`'s
 * `cross_realm_bots` and is not one of the realm's users (not in
 * `realm_users`, `GET /users`, `realm_bots`, system groups; `GET /users/{id}`
 * says `No such user`, as Zulip's realm-only `access_user_by_id`), and its
 * creation sends no `realm_user` event.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { keys } from "../../shared/data/keys.js";
import { userById } from "../../shared/data/users.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { expectMatchesContract, itContract } from "../support/openapi.js";
import { createStream, markEvents } from "./streams-helpers.js";

const org = useTestOrg();
const BOT_EMAIL = "notification-bot@zulip.com";

/** Events of the whole seeded organization written since the mark, flattened. */
let eventsSinceMove: Record<string, any>[] = [];
let noticeId = 0;
let botId = 0;

async function send(user: TestUser, topic: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: "bot-stream", topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function topicMessages(user: TestUser, topic: string, params: Record<string, unknown> = {}) {
  const res = await org.api(user, "GET", "/messages", {
    anchor: "newest",
    num_before: 100,
    num_after: 0,
    narrow: [{ operator: "stream", operand: "bot-stream" }, { operator: "topic", operand: topic }],
    apply_markdown: false,
    ...params,
  });
  expect(res.status).toBe(200);
  return res.body.messages as Record<string, any>[];
}

async function register(user: TestUser, types: string[]) {
  const res = await org.api(user, "POST", "/register", { event_types: types, fetch_event_types: types });
  expect(res.status).toBe(200);
  return res;
}

beforeAll(async () => {
  const { owner, admin, member, member2, guest } = org.users;
  await createStream(org, member, "bot-stream", { principals: [member.id, member2.id] });
  const id = await send(member, "before", "hello");
  const everyone = [owner, admin, member, member2, guest];
  const marks = await markEvents(org, everyone);
  // A topic move with notices (the defaults) is the Notification Bot's first post.
  const res = await org.api(member2, "PATCH", `/messages/${id}`, { topic: "after", propagate_mode: "change_all" });
  expect(res.body).toEqual({ result: "success", msg: "" });
  eventsSinceMove = (await Promise.all(everyone.map((u) => marks.since(u)))).flat();
  const notice = (await topicMessages(member, "after")).at(-1)!;
  noticeId = notice.id as number;
  botId = notice.sender_id as number;
});

describe("Notification Bot as a system bot", () => {
  it("is stored marked as a system bot, owned by nobody, with a member's role", async () => {
    const bot = (await userById(org.stack.deps, org.realm.id, botId))!;
    expect(bot).toMatchObject({
      delivery_email: BOT_EMAIL,
      full_name: "Notification Bot",
      is_bot: true,
      bot_type: 1,
      bot_owner_id: null,
      role: 400,
      is_system_bot: true,
    });
  });

  it("its lazy creation sent no realm_user event to anyone", () => {
    expect(eventsSinceMove.filter((e) => e.type === "realm_user")).toEqual([]);
    // The move itself did reach the subscribers (the mark works).
    expect(eventsSinceMove.some((e) => e.type === "update_message")).toBe(true);
  });

  it("signs the notice: sender fields and avatar match its cross_realm_bots entry", async () => {
    const [notice] = (await topicMessages(org.users.member, "after", { client_gravatar: false })).filter(
      (m) => m.id === noticeId,
    );
    const crossRealm = (await register(org.users.member, ["realm_user"])).body.cross_realm_bots[0];
    expect(notice).toMatchObject({
      sender_id: botId,
      sender_full_name: "Notification Bot",
      sender_email: BOT_EMAIL,
      client: "Internal",
      avatar_url: crossRealm.avatar_url,
      content: `This topic was moved here from #**bot-stream>before** by @_**${org.users.member2.fullName}|${org.users.member2.id}**.`,
    });
    expect(typeof crossRealm.avatar_url).toBe("string");
  });

  it("register lists it in cross_realm_bots with Zulip's fields, not among the realm's users", async () => {
    for (const who of [org.users.member, org.users.admin, org.users.guest]) {
      const { body } = await register(who, ["realm_user"]);
      expect(body.cross_realm_bots).toEqual([
        {
          user_id: botId,
          email: BOT_EMAIL,
          delivery_email: BOT_EMAIL,
          full_name: "Notification Bot",
          date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/),
          is_active: true,
          is_owner: false,
          is_admin: false,
          is_guest: false,
          is_billing_admin: false,
          is_bot: true,
          is_system_bot: true,
          bot_type: 1,
          bot_owner_id: null,
          role: 400,
          timezone: "",
          avatar_url: expect.any(String),
          avatar_version: 1,
        },
      ]);
      const listed = [...body.realm_users, ...body.realm_non_active_users].map((u: { user_id: number }) => u.user_id);
      expect(listed).not.toContain(botId);
      expect(listed).toContain(org.users.bot.id);
      // Realm users never carry the system-bot marker (OpenAPI `User` has no such field).
      for (const u of body.realm_users) expect(u).not.toHaveProperty("is_system_bot");
    }
  });

  itContract("the register response with cross_realm_bots matches the OpenAPI contract", async () => {
    const res = await register(org.users.member, ["realm_user"]);
    expect(res.body.cross_realm_bots).toHaveLength(1);
    expectMatchesContract("POST", "/register", 200, res.body);
  });

  it("is in no realm_bots (not even an administrator's) and no system group", async () => {
    const { body } = await register(org.users.admin, ["realm_bot", "realm_user_groups"]);
    const bots = body.realm_bots.map((b: { user_id: number }) => b.user_id);
    expect(bots).toContain(org.users.bot.id);
    expect(bots).not.toContain(botId);
    const members = body.realm_user_groups.flatMap((g: { members: number[] }) => g.members);
    expect(members).toContain(org.users.member.id);
    expect(members).not.toContain(botId);
  });

  it("GET /users does not list it; GET /users/{id} and /users/{email} say No such user", async () => {
    const list = await org.api(org.users.member, "GET", "/users");
    expect(list.status).toBe(200);
    const ids = list.body.members.map((u: { user_id: number }) => u.user_id);
    expect(ids).not.toContain(botId);
    expect(ids).toContain(org.users.bot.id);
    for (const path of [`/users/${botId}`, `/users/${BOT_EMAIL}`]) {
      const res = await org.api(org.users.member, "GET", path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
    }
    // An ordinary bot is still reachable.
    const ordinary = await org.api(org.users.member, "GET", `/users/${org.users.bot.id}`);
    expect(ordinary.status).toBe(200);
    expect(ordinary.body.user).not.toHaveProperty("is_system_bot");
  });

  it("a second notice reuses the bot, still without events", async () => {
    const { owner, member, member2 } = org.users;
    const id = await send(member, "again", "once more");
    const marks = await markEvents(org, [owner, member, member2]);
    const res = await org.api(member2, "PATCH", `/messages/${id}`, { topic: "again-moved", propagate_mode: "change_all" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const notice = (await topicMessages(member, "again-moved")).at(-1)!;
    expect(notice.sender_id).toBe(botId);
    const events = (await Promise.all([owner, member, member2].map((u) => marks.since(u)))).flat();
    expect(events.filter((e) => e.type === "realm_user")).toEqual([]);
    expect((await register(member, ["realm_user"])).body.cross_realm_bots.map((b: { user_id: number }) => b.user_id)).toEqual([
      botId,
    ]);
  });

  it("a record created before the system-bot mark is recognised by its email", async () => {
    const deps = org.stack.deps;
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: keys.user(org.realm.id, botId),
        UpdateExpression: "REMOVE is_system_bot",
      }),
    );
    try {
      expect((await userById(deps, org.realm.id, botId))!.is_system_bot).toBeUndefined();
      const { body } = await register(org.users.member, ["realm_user"]);
      expect(body.cross_realm_bots.map((b: { user_id: number }) => b.user_id)).toEqual([botId]);
      expect(body.cross_realm_bots[0].is_system_bot).toBe(true);
      expect(body.realm_users.map((u: { user_id: number }) => u.user_id)).not.toContain(botId);
      const list = await org.api(org.users.member, "GET", "/users");
      expect(list.body.members.map((u: { user_id: number }) => u.user_id)).not.toContain(botId);
    } finally {
      await deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: keys.user(org.realm.id, botId),
          UpdateExpression: "SET is_system_bot = :t",
          ExpressionAttributeValues: { ":t": true },
        }),
      );
    }
  });
});
