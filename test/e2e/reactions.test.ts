import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import zulipInit from "zulip-js";
import { writeZuliprc } from "../../infra/local/bootstrap.js";
import { messageById } from "../../shared/data/messages.js";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, markEvents } from "./streams-helpers.js";
import { messageReactions } from "../../shared/data/reactions.js";

const org = useTestOrg();
let messageId = 0;

async function send(user: TestUser, to: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to, topic: "r", content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function reactionsOf(id: number) {
  return messageReactions((await messageById(org.stack.deps, id))!);
}

beforeAll(async () => {
  const { member, member2 } = org.users;
  await createStream(org, member, "react-stream", { principals: [member.id, member2.id] });
  messageId = await send(member, "react-stream", "react to me");
});

describe("reactions", () => {
  it("zulip-js adds and removes a reaction by name; everyone who can see the message hears", async () => {
    const { member, member2 } = org.users;
    const dir = await mkdtemp(join(tmpdir(), "zuliprc-"));
    await writeZuliprc(join(dir, "zuliprc"), { site: org.url, email: member2.email, apiKey: member2.apiKey });
    const zulip = await zulipInit({ zuliprc: join(dir, "zuliprc") });
    const marks = await markEvents(org, [member, member2]);

    const added = await zulip.reactions.add({ message_id: messageId, emoji_name: "octopus" });
    expect(added).toEqual({ result: "success", msg: "" });
    expect(await reactionsOf(messageId)).toEqual([
      {
        emoji_name: "octopus",
        emoji_code: "1f419",
        reaction_type: "unicode_emoji",
        user_id: member2.id,
        user: { id: member2.id, email: member2.email, full_name: member2.fullName, is_mirror_dummy: false },
      },
    ]);
    const get = await org.api(member, "GET", `/messages/${messageId}`, {});
    expect(get.body.message.reactions).toHaveLength(1);

    const removed = await zulip.reactions.remove({ message_id: messageId, emoji_name: "octopus" });
    expect(removed).toEqual({ result: "success", msg: "" });
    expect(await reactionsOf(messageId)).toEqual([]);

    for (const user of [member, member2]) {
      const events = (await marks.since(user)).filter((e) => e.type === "reaction");
      expect(events.map((e) => e.op)).toEqual(["add", "remove"]);
      for (const e of events) {
        validateEvent({ ...e, id: 0 });
        expect(e).toMatchObject({ message_id: messageId, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji", user_id: member2.id });
      }
    }
  });

  it("a second identical reaction, a missing one, bad emoji and invisible messages are refused", async () => {
    const { member, member2, guest } = org.users;
    const ok = await org.api(member, "POST", `/messages/${messageId}/reactions`, { emoji_name: "smile" });
    expect(ok.body).toEqual({ result: "success", msg: "" });
    const cases: [TestUser, string, string, Record<string, unknown>, string][] = [
      [member, "POST", `/messages/${messageId}/reactions`, { emoji_name: "smile" }, "Reaction already exists."],
      [member, "DELETE", `/messages/${messageId}/reactions`, { emoji_name: "tada" }, "Reaction doesn't exist."],
      [member, "DELETE", `/messages/${messageId}/reactions`, { emoji_code: "1f604", reaction_type: "no_such_type" }, "Reaction doesn't exist."],
      [member, "DELETE", `/messages/${messageId}/reactions`, { emoji_code: "1f".repeat(5000), reaction_type: "realm_emoji" }, "Reaction doesn't exist."],
      [member, "POST", `/messages/${messageId}/reactions`, { emoji_name: "not_an_emoji" }, "Emoji 'not_an_emoji' does not exist"],
      [member, "POST", `/messages/${messageId}/reactions`, { emoji_name: "smile", emoji_code: "1f389", reaction_type: "unicode_emoji" }, "Invalid emoji name."],
      [member, "POST", `/messages/${messageId}/reactions`, { emoji_name: "x", emoji_code: "zzz", reaction_type: "unicode_emoji" }, "Invalid emoji code."],
      [member, "POST", "/messages/999999/reactions", { emoji_name: "smile" }, "Invalid message(s)"],
      [guest, "POST", `/messages/${messageId}/reactions`, { emoji_name: "tada" }, "Invalid message(s)"],
      [member, "DELETE", `/messages/${messageId}/reactions`, {}, "At least one of the following arguments must be present: emoji_name, emoji_code"],
    ];
    for (const [user, method, path, params, msg] of cases) {
      const res = await org.api(user, method, path, params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
    }
    expect((await reactionsOf(messageId)).map((r: any) => [r.user_id, r.emoji_name])).toEqual([[member.id, "smile"]]);
    // Another user's vote with the same code keeps the first name.
    const vote = await org.api(member2, "POST", `/messages/${messageId}/reactions`, {
      emoji_name: "smiley_face_alias_ignored",
      emoji_code: "1f642",
      reaction_type: "unicode_emoji",
    });
    expect(vote.body).toMatchObject({ result: "success" });
    expect((await reactionsOf(messageId)).map((r: any) => r.emoji_name)).toEqual(["smile", "smile"]);
  });

  it("concurrent reactions do not clobber each other", async () => {
    const id = await send(org.users.member, "react-stream", "race");
    const emoji = ["tada", "heart", "rocket", "fire", "star", "eyes"];
    const results = await Promise.all(emoji.map((e) => org.api(org.users.member2, "POST", `/messages/${id}/reactions`, { emoji_name: e })));
    for (const r of results) expect(r.body.result).toBe("success");
    expect(((await reactionsOf(id)) as any[]).map((r) => r.emoji_name).sort()).toEqual([...emoji].sort());
  });

  it("reacting to a public message never received adds a historical read row", async () => {
    const { admin } = org.users;
    const res = await org.api(admin, "POST", `/messages/${messageId}/reactions`, { emoji_name: "tada" });
    expect(res.body).toMatchObject({ result: "success" });
    const row = (await getUserMessages(org.stack.deps, admin.id, [messageId])).get(messageId);
    expect(row?.flags.sort()).toEqual(["historical", "read"]);
  });

  it("costs the same number of DynamoDB calls with 5 or 50 messages of history", async () => {
    const { member, member2 } = org.users;
    const count = async (streamName: string, n: number) => {
      await createStream(org, member, streamName, { principals: [member.id, member2.id] });
      // History sent ten at a time, to keep the run short.
      let last = 0;
      for (let i = 0; i < n; i += 10) {
        const ids = await Promise.all(Array.from({ length: Math.min(10, n - i) }, (_, j) => send(member, streamName, `m${i + j}`)));
        last = Math.max(last, ...ids);
      }
      // The sends leave index jobs behind; their calls share this client and must not be counted.
      await org.stack.drainDeferredWork();
      const stack = org.stack.deps.db.middlewareStack;
      let calls = 0;
      const name = `count-${streamName}`;
      stack.add((next) => async (args) => {
        calls++;
        return next(args);
      }, { step: "initialize", name });
      try {
        await org.api(member2, "POST", `/messages/${last}/reactions`, { emoji_name: "tada" });
        const afterAdd = calls;
        await org.api(member2, "POST", "/messages/flags", { messages: [last], op: "add", flag: "starred" });
        return [afterAdd, calls - afterAdd];
      } finally {
        stack.remove(name);
      }
    };
    const small = await count("react-5", 5);
    const big = await count("react-50", 50);
    expect(small[0]).toBeGreaterThan(3); // the counter does see the server's calls
    expect(big).toEqual(small);
    // 55 sends, 4 counted requests and 2 drains: a budget by what it sends (3 s a request), not by the clock.
  }, 60 * 3_000);
});
