import { beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { createStreamId } from "./streams-helpers.js";

const org = useTestOrg();

let streamId = 0;
let privateStreamId = 0;

async function send(user: TestUser, to: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to, topic: "receipts", content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function markRead(user: TestUser, ids: number[]): Promise<void> {
  const res = await org.api(user, "POST", "/messages/flags", { messages: ids, op: "add", flag: "read" });
  expect(res.body).toMatchObject({ result: "success" });
}

async function receipts(user: TestUser, id: number) {
  return org.api(user, "GET", `/messages/${id}/read_receipts`);
}

const readersOf = async (user: TestUser, id: number) => ((await receipts(user, id)).body.user_ids as number[]).slice().sort((a, b) => a - b);

beforeAll(async () => {
  const { owner, admin, member, member2, moderator, guest, bot } = org.users;
  const everyone = [owner, admin, member, member2, moderator, guest, bot].map((u) => u.id);
  streamId = await createStreamId(org, owner, "receipts-stream", { principals: everyone });
  privateStreamId = await createStreamId(org, member, "receipts-private", { inviteOnly: true, principals: [member.id, member2.id] });
  expect(streamId).toBeGreaterThan(0);
  expect(privateStreamId).toBeGreaterThan(0);
});

describe("GET /messages/{message_id}/read_receipts", () => {
  it("answers who read it, the sender left out, the requester and bots included", async () => {
    const { owner, admin, member, member2, bot } = org.users;
    await withRealmSettings(org, { enable_read_receipts: true }, async () => {
      const id = await send(member, "receipts-stream", "who read this?");
      expect(await readersOf(admin, id)).toEqual([]);
      await markRead(member2, [id]);
      await markRead(admin, [id]);
      await markRead(bot, [id]);
      const res = await receipts(admin, id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: "success", msg: "", user_ids: expect.any(Array) });
      expect(await readersOf(admin, id)).toEqual([admin.id, member2.id, bot.id].sort((a, b) => a - b));
      // Marking unread takes the reader out again.
      await org.api(member2, "POST", "/messages/flags", { messages: [id], op: "remove", flag: "read" });
      expect(await readersOf(owner, id)).toEqual([admin.id, bot.id].sort((a, b) => a - b));
    });
  });

  it("leaves out users whose send_read_receipts is off, and deactivated users", async () => {
    const { owner, admin, member, moderator, member2 } = org.users;
    await withRealmSettings(org, { enable_read_receipts: true }, async () => {
      const id = await send(member, "receipts-stream", "privacy");
      await markRead(moderator, [id]);
      await markRead(member2, [id]);
      expect(await readersOf(admin, id)).toEqual([member2.id, moderator.id].sort((a, b) => a - b));

      const off = await org.api(moderator, "PATCH", "/settings", { send_read_receipts: false });
      expect(off.body).toMatchObject({ result: "success" });
      expect(await readersOf(admin, id)).toEqual([member2.id]);
      await org.api(moderator, "PATCH", "/settings", { send_read_receipts: true });

      const extra = await org.createUser("receipts-reader");
      await org.api(owner, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "receipts-stream" }], principals: [extra.id] });
      await markRead(extra, [id]);
      expect(await readersOf(admin, id)).toContain(extra.id);
      expect((await org.api(owner, "DELETE", `/users/${extra.id}`)).body).toMatchObject({ result: "success" });
      expect(await readersOf(admin, id)).not.toContain(extra.id);
    });
  });

  it("leaves out users the requester muted and users who muted the requester", async () => {
    const { admin, member, member2, moderator } = org.users;
    await withRealmSettings(org, { enable_read_receipts: true }, async () => {
      const id = await send(admin, "receipts-stream", "mutes");
      await markRead(member, [id]);
      await markRead(member2, [id]);
      await markRead(moderator, [id]);
      expect((await org.api(member, "POST", `/users/me/muted_users/${member2.id}`)).body).toMatchObject({ result: "success" });
      try {
        // member muted member2: neither sees the other.
        expect(await readersOf(member, id)).toEqual([member.id, moderator.id].sort((a, b) => a - b));
        expect(await readersOf(member2, id)).toEqual([member2.id, moderator.id].sort((a, b) => a - b));
        // A third user sees both.
        expect(await readersOf(moderator, id)).toEqual([member.id, member2.id, moderator.id].sort((a, b) => a - b));
      } finally {
        await org.api(member, "DELETE", `/users/me/muted_users/${member2.id}`);
      }
    });
  });

  it("refuses when the organization has read receipts off, with Zulip's error", async () => {
    const { admin, member } = org.users;
    await withRealmSettings(org, { enable_read_receipts: false }, async () => {
      const id = await send(member, "receipts-stream", "off");
      const res = await receipts(admin, id);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg: "Read receipts are disabled in this organization.", code: "BAD_REQUEST" });
    });
  });

  it("refuses messages the requester cannot access, before the setting", async () => {
    const { member, guest, admin } = org.users;
    await withRealmSettings(org, { enable_read_receipts: true }, async () => {
      const id = await send(member, "receipts-private", "secret");
      for (const who of [guest, admin]) {
        const res = await receipts(who, id);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" });
      }
      const missing = await receipts(member, 999_999_999);
      expect(missing.body).toEqual({ result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" });
    });
    await withRealmSettings(org, { enable_read_receipts: false }, async () => {
      const missing = await receipts(member, 999_999_999);
      expect(missing.body.msg).toBe("Invalid message(s)");
    });
  });
});
