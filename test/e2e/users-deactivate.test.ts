import { describe, expect, it } from "vitest";
import { BotType, Role } from "../../shared/domain/roles.js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const deactivated = { result: "error", msg: "Account is deactivated", code: "UNAUTHORIZED" };

/** A fresh member with one bot of their own. */
async function memberWithBot(name: string): Promise<{ human: TestUser; bot: TestUser }> {
  const human = await org.createUser(name);
  const botRecord = await doCreateUser(org.stack.deps, org.realm, {
    email: `${name}-bot@test.example`,
    full_name: `${name} bot`,
    is_bot: true,
    bot_type: BotType.DEFAULT,
    bot_owner_id: human.id,
  });
  const bot = { id: botRecord.user_id, email: botRecord.delivery_email, apiKey: botRecord.api_key, fullName: botRecord.full_name, role: botRecord.role };
  return { human, bot };
}

describe("DELETE /users/{user_id}", () => {
  it("deactivates a user and their bots; both keys then fail with 401 'Account is deactivated'", async () => {
    // Prepare
    const { human, bot } = await memberWithBot("dee");
    expect((await org.api(bot, "GET", "/users/me")).status).toBe(200);
    const cursors = await eventCursors(org, [org.users.member.id, org.users.admin.id]);
    // Act
    const res = await org.api(org.users.admin, "DELETE", `/users/${human.id}`);
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, human.id)).is_active).toBe(false);
    expect((await storedUser(org, bot.id)).is_active).toBe(false);
    for (const who of [human, bot]) {
      const me = await org.api(who, "GET", "/users/me");
      expect(me.status).toBe(401);
      expect(me.body).toEqual(deactivated);
    }
    // Events: realm_user update is_active=false for the bot and the user, to everyone still active;
    // realm_bot update to those who administer the bot (administrators; its owner is gone).
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: bot.id, is_active: false } },
      { type: "realm_user", op: "update", person: { user_id: human.id, is_active: false } },
    ]);
    expect(await eventsAfter(org, org.users.admin.id, cursors.get(org.users.admin.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: bot.id, is_active: false } },
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, is_active: false } },
      { type: "realm_user", op: "update", person: { user_id: human.id, is_active: false } },
    ]);
  });

  it("accepts and ignores deactivation_notification_comment, but limits it to 2000 characters", async () => {
    const a = await org.createUser("commented");
    const ok = await org.api(org.users.admin, "DELETE", `/users/${a.id}`, { deactivation_notification_comment: "Bye" });
    expect(ok.body.result).toBe("success");
    const b = await org.createUser("too-long-comment");
    const res = await org.api(org.users.admin, "DELETE", `/users/${b.id}`, {
      deactivation_notification_comment: "x".repeat(2001),
    });
    expect(res.body).toEqual(err("deactivation_notification_comment is too long (limit: 2000 characters)"));
    expect((await storedUser(org, b.id)).is_active).toBe(true);
  });

  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who}: Insufficient permission, the target stays active`, async () => {
      const res = await org.api(org.users[who], "DELETE", `/users/${org.users.member2.id}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err("Insufficient permission"));
      expect((await storedUser(org, org.users.member2.id)).is_active).toBe(true);
    });
  }

  it("refuses an administrator deactivating an owner: Must be an organization owner", async () => {
    const owner2 = await org.createUser("second-owner", Role.OWNER);
    const res = await org.api(org.users.admin, "DELETE", `/users/${owner2.id}`);
    expect(res.body).toEqual(err("Must be an organization owner"));
    expect((await storedUser(org, owner2.id)).is_active).toBe(true);
    // An owner may.
    const byOwner = await org.api(org.users.owner, "DELETE", `/users/${owner2.id}`);
    expect(byOwner.body.result).toBe("success");
    expect((await storedUser(org, owner2.id)).is_active).toBe(false);
  });

  it("refuses to deactivate the only owner", async () => {
    const res = await org.api(org.users.owner, "DELETE", `/users/${org.users.owner.id}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("Cannot deactivate the only organization owner"));
    expect((await storedUser(org, org.users.owner.id)).is_active).toBe(true);
  });

  it("answers No such user for a bot (bots have their own endpoint) and for an unknown ID", async () => {
    expect((await org.api(org.users.admin, "DELETE", `/users/${org.users.bot.id}`)).body).toEqual(err("No such user"));
    expect((await storedUser(org, org.users.bot.id)).is_active).toBe(true);
    expect((await org.api(org.users.admin, "DELETE", "/users/999999")).body).toEqual(err("No such user"));
  });

  it("answers User is deactivated for an already deactivated user", async () => {
    const twice = await org.createUser("twice");
    await org.api(org.users.admin, "DELETE", `/users/${twice.id}`);
    const res = await org.api(org.users.admin, "DELETE", `/users/${twice.id}`);
    expect(res.body).toEqual(err("User is deactivated"));
  });
});

describe("POST /users/{user_id}/reactivate", () => {
  it("reactivates a user (not their bots); their key works again; everyone active is told", async () => {
    // Prepare
    const { human, bot } = await memberWithBot("phoenix");
    await org.api(org.users.admin, "DELETE", `/users/${human.id}`);
    const cursors = await eventCursors(org, [org.users.member.id]);
    // Act
    const res = await org.api(org.users.admin, "POST", `/users/${human.id}/reactivate`);
    // Assess
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, human.id)).is_active).toBe(true);
    expect((await storedUser(org, bot.id)).is_active).toBe(false);
    expect((await org.api(human, "GET", "/users/me")).status).toBe(200);
    expect((await org.api(bot, "GET", "/users/me")).body).toEqual(deactivated);
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: human.id, is_active: true } },
    ]);
  });

  it("reactivates a bot of a deactivated owner and makes the administrator its owner", async () => {
    // Prepare
    const { human, bot } = await memberWithBot("orphan");
    await org.api(org.users.admin, "DELETE", `/users/${human.id}`);
    const cursors = await eventCursors(org, [org.users.admin.id]);
    // Act
    const res = await org.api(org.users.admin, "POST", `/users/${bot.id}/reactivate`);
    // Assess
    expect(res.body.result).toBe("success");
    const stored = await storedUser(org, bot.id);
    expect(stored).toMatchObject({ is_active: true, bot_owner_id: org.users.admin.id });
    expect((await org.api(bot, "GET", "/users/me")).status).toBe(200);
    expect(await eventsAfter(org, org.users.admin.id, cursors.get(org.users.admin.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: bot.id, is_active: true } },
      { type: "realm_user", op: "update", person: { user_id: bot.id, bot_owner_id: org.users.admin.id } },
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, is_active: true } },
    ]);
  });

  it("succeeds without change for an active user", async () => {
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await org.api(org.users.admin, "POST", `/users/${org.users.member2.id}/reactivate`);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([]);
  });

  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who}: Insufficient permission, the user stays deactivated`, async () => {
      const gone = await org.createUser(`gone-${who}`);
      await org.api(org.users.admin, "DELETE", `/users/${gone.id}`);
      const res = await org.api(org.users[who], "POST", `/users/${gone.id}/reactivate`);
      expect(res.body).toEqual(err("Insufficient permission"));
      expect((await storedUser(org, gone.id)).is_active).toBe(false);
    });
  }

  it("answers No such user for an unknown ID", async () => {
    expect((await org.api(org.users.admin, "POST", "/users/999999/reactivate")).body).toEqual(err("No such user"));
  });
});

describe("DELETE /users/me", () => {
  it("deactivates the caller and their bots", async () => {
    const { human, bot } = await memberWithBot("quitter");
    const res = await org.api(human, "DELETE", "/users/me");
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, human.id)).is_active).toBe(false);
    expect((await storedUser(org, bot.id)).is_active).toBe(false);
    expect((await org.api(human, "GET", "/users/me")).body).toEqual(deactivated);
  });

  it("refuses the only owner with CANNOT_DEACTIVATE_LAST_USER", async () => {
    const res = await org.api(org.users.owner, "DELETE", "/users/me");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Cannot deactivate the only organization owner",
      code: "CANNOT_DEACTIVATE_LAST_USER",
      entity: "organization owner",
      is_last_owner: true,
    });
    expect((await storedUser(org, org.users.owner.id)).is_active).toBe(true);
  });

  it("lets an owner leave when another owner remains", async () => {
    const extra = await org.createUser("leaving-owner", Role.OWNER);
    const res = await org.api(extra, "DELETE", "/users/me");
    expect(res.body.result).toBe("success");
    expect((await storedUser(org, extra.id)).is_active).toBe(false);
  });
});
