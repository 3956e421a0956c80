import { beforeAll, describe, expect, it } from "vitest";
import { createUsers } from "../../scripts/bench/seed.js";
import { keys } from "../../shared/data/keys.js";
import { addMessageReaction } from "../../shared/data/reactions.js";
import type { ReactionRecord } from "../../shared/data/records/reaction.js";
import type { TestUser } from "../support/api-client.js";
import type { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, queueClient } from "./streams-helpers.js";

/**
 * Many users changing the reactions of one message at the same moment: every
 * request succeeds (https://zulip.com/api/add-reaction, remove-reaction: a
 * reaction that exists can always be removed), the message ends with exactly
 * the reactions expected, and a client watching the stream hears one event
 * per change.
 */

const org = useTestOrg();
const STREAM = "react-crowd";
let crowd: TestUser[] = [];
let watcher: EventQueueClient;

async function send(content: string): Promise<number> {
  const res = await org.api(org.users.member, "POST", "/messages", { type: "stream", to: STREAM, topic: "crowd", content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

/** The `[emoji_name, user_id]` pairs of a message's reactions as `GET /messages/{id}` gives them. */
async function reactionPairs(id: number): Promise<[string, number][]> {
  const res = await org.api(org.users.member, "GET", `/messages/${id}`, {});
  expect(res.status).toBe(200);
  return (res.body.message.reactions as { emoji_name: string; user_id: number }[]).map((r) => [r.emoji_name, r.user_id]);
}

/** Polls the watcher (without blocking) until `count` `reaction` events of a message arrived; returns them. */
async function reactionEvents(id: number, count: number): Promise<Record<string, any>[]> {
  const of = () => watcher.received.filter((e) => e.type === "reaction" && e.message_id === id);
  for (let i = 0; i < 50 && of().length < count; i++) await watcher.poll({ dontBlock: true });
  return of();
}

/**
 * Counts the UpdateItems of one message item the server sends from now
 * until `stop()` (a middleware on the stack's DynamoDB client).
 */
function countMessageWrites(id: number) {
  const stack = org.stack.deps.db.middlewareStack;
  const name = `count-message-writes-${id}`;
  const key = keys.message(id);
  const counter = { count: 0, stop: () => stack.remove(name) };
  stack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: { pk?: string; sk?: string } };
      // The document client's UpdateCommand runs as the base client's UpdateItemCommand; the input is not marshalled yet.
      if (/^Update(Item)?Command$/.test(String(context.commandName)) && input.Key?.pk === key.pk && input.Key.sk === key.sk) counter.count++;
      return next(args);
    },
    { step: "initialize", name },
  );
  return counter;
}

beforeAll(async () => {
  // 100 members beyond the seeded ones, stored directly: creating them through
  // doCreateUser would tell every user of the realm about each (what this test is not about).
  crowd = (await createUsers(org.stack.deps, org.realm, "crowd", 100)).map((u) => ({
    id: u.user_id,
    email: u.delivery_email,
    apiKey: u.api_key,
    fullName: u.full_name,
    role: u.role,
  }));
  const { member, member2 } = org.users;
  await createStream(org, member, STREAM, { principals: [member.id, member2.id] });
  watcher = queueClient(org, member);
  await watcher.register({ event_types: JSON.stringify(["reaction"]) });
}, 120_000);

/** A crowd user's reaction as the API stores it (`emoji_name` octopus), for preparing state without events. */
function octopusOf(u: TestUser): ReactionRecord {
  return {
    emoji_name: "octopus",
    emoji_code: "1f419",
    reaction_type: "unicode_emoji",
    user_id: u.id,
    user: { id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false },
  };
}

describe.each([20, 100])("%i users removing one emoji at once, 20 users adding another", (n) => {
  it("every request succeeds, the message keeps exactly the rest, the watcher hears each change", async () => {
    // Prepare: member2's heart first, then n users of the crowd (not subscribed:
    // the stream's history is public) react with octopus, written directly so
    // that the watcher hears only the changes under test.
    const users = crowd.slice(0, n);
    const adders = crowd.slice(0, 20);
    const id = await send(`crowd of ${n}`);
    const heart = await org.api(org.users.member2, "POST", `/messages/${id}/reactions`, { emoji_name: "heart" });
    expect(heart.status).toBe(200);
    for (const u of users) expect(await addMessageReaction(org.stack.deps, id, octopusOf(u))).toBe("added");
    expect((await reactionPairs(id)).sort()).toEqual([["heart", org.users.member2.id], ...users.map((u) => ["octopus", u.id])].sort());

    // Act: each of them removes their octopus, and 20 of them add a tada, all at once.
    const messageWrites = countMessageWrites(id);
    const results = await Promise.all([
      ...users.map((u) => org.api(u, "DELETE", `/messages/${id}/reactions`, { emoji_name: "octopus" })),
      ...adders.map((u) => org.api(u, "POST", `/messages/${id}/reactions`, { emoji_name: "tada" })),
    ]).finally(() => messageWrites.stop());

    // Assess: all succeeded; heart stays first, one tada per adder, no octopus.
    for (const r of results) expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { result: "success", msg: "" } });
    const after = await reactionPairs(id);
    expect(after[0]).toEqual(["heart", org.users.member2.id]);
    expect(after.slice(1).sort()).toEqual(adders.map((u) => ["tada", u.id]).sort());
    const events = await reactionEvents(id, 1 + n + adders.length);
    const removals = events.filter((e) => e.op === "remove");
    expect(removals.map((e) => e.user_id).sort()).toEqual(users.map((u) => u.id).sort());
    for (const e of removals) {
      expect(e).toMatchObject({ message_id: id, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" });
    }
    const adds = events.filter((e) => e.op === "add" && e.emoji_name === "tada");
    expect(adds.map((e) => e.user_id).sort()).toEqual(adders.map((u) => u.id).sort());
    expect(events).toHaveLength(1 + n + adders.length);
    // One write of the message item per change: nobody re-read it and tried again.
    expect(messageWrites.count).toBe(n + adders.length);
  }, 120_000);
});
