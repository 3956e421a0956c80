import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { messageById } from "../../shared/data/messages.js";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { systemClock } from "../../shared/deps.js";
import { Role } from "../../shared/domain/roles.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, eventsOf } from "./streams-helpers.js";

// Topic participants (Zulip's `participants_for_topic`: senders and reactors
// of a topic's messages): who `@**topic**` flags, and who a resolution
// notice stays unread for; plus the resolve/unresolve undo grace period.

const org = useTestOrg();
const STREAM = "tp-stream";

afterEach(() => {
  org.stack.deps.clock = systemClock;
});

beforeAll(async () => {
  const { member, member2, admin, moderator } = org.users;
  await createStream(org, member, STREAM, { principals: [member.id, member2.id, admin.id, moderator.id] });
});

async function send(user: TestUser, topic: string, content: string, stream = STREAM): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function react(user: TestUser, messageId: number): Promise<void> {
  const res = await org.api(user, "POST", `/messages/${messageId}/reactions`, { emoji_name: "octopus" });
  expect(res.body).toMatchObject({ result: "success" });
}

/** Stored flags of each user's row for a message (undefined: no row). */
async function storedFlags(messageId: number, users: TestUser[]): Promise<Map<number, string[] | undefined>> {
  const rows = await Promise.all(users.map((u) => getUserMessages(org.stack.deps, u.id, [messageId])));
  return new Map(users.map((u, i) => [u.id, rows[i]!.get(messageId)?.flags]));
}

async function rename(user: TestUser, messageId: number, topic: string): Promise<void> {
  const res = await org.api(user, "PATCH", `/messages/${messageId}`, { topic, propagate_mode: "change_all" });
  expect(res.body).toEqual({ result: "success", msg: "" });
}

/** The topic's messages, oldest first, as `member` sees them (content as Markdown). */
async function topicMessages(topic: string, stream = STREAM): Promise<{ id: number; content: string; sender_id: number }[]> {
  const res = await org.api(org.users.member, "GET", "/messages", {
    anchor: "newest",
    num_before: 50,
    num_after: 0,
    narrow: [{ operator: "stream", operand: stream }, { operator: "topic", operand: topic }],
    apply_markdown: false,
  });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.messages as { id: number; content: string; sender_id: number }[];
}

/** Fixes the server clock (in the past: event-log keys carry the writer's clock, see presence.test.ts). */
function setClock(ms: number): void {
  org.stack.deps.clock = { now: () => ms };
}

const notice = (user: TestUser, change: "resolved" | "unresolved") =>
  `@_**${user.fullName}|${user.id}** has marked this topic as ${change}.`;

describe("@**topic** flags topic participants only", () => {
  it("on send: senders and reactors of the topic, not other subscribers, not the topic's newcomer", async () => {
    const { member, member2, admin, moderator } = org.users;
    const first = await send(member, "plan", "first idea");
    await react(member2, first);
    await send(admin, "another topic", "participating elsewhere does not count");

    const wildcard = await send(moderator, "plan", "@**topic** heads up");
    const flags = await storedFlags(wildcard, [member, member2, admin, moderator]);
    expect(flags.get(member.id)).toContain("topic_wildcard_mentioned");
    expect(flags.get(member2.id)).toContain("topic_wildcard_mentioned");
    // A subscriber who never took part gets the message, without the mention.
    expect(flags.get(admin.id)).toBeDefined();
    expect(flags.get(admin.id)).not.toContain("topic_wildcard_mentioned");
    // Participants are counted before the message: its sender is not one yet.
    expect(flags.get(moderator.id)).not.toContain("topic_wildcard_mentioned");

    // On the wire, the legacy wildcard_mentioned follows (feature level 224).
    const forMember2 = await org.api(member2, "GET", `/messages/${wildcard}`);
    expect(forMember2.body.message.flags).toEqual(expect.arrayContaining(["topic_wildcard_mentioned", "wildcard_mentioned"]));
    const forAdmin = await org.api(admin, "GET", `/messages/${wildcard}`);
    expect(forAdmin.body.message.flags).not.toContain("wildcard_mentioned");

    // A sender who took part before is a participant of their own @**topic**.
    const again = await send(member, "plan", "@**topic** once more");
    expect((await storedFlags(again, [member])).get(member.id)).toContain("topic_wildcard_mentioned");
    // And the first wildcard's sender is a participant now.
    expect((await storedFlags(again, [moderator])).get(moderator.id)).toContain("topic_wildcard_mentioned");
  });

  it("topic names compare case-insensitively, as Zulip's iexact", async () => {
    const { member, member2 } = org.users;
    await send(member2, "Case Topic", "hello");
    const wildcard = await send(member, "case topic", "@**topic**");
    expect((await storedFlags(wildcard, [member2])).get(member2.id)).toContain("topic_wildcard_mentioned");
  });

  it("on content edit: flags follow the participants, and clear when the wildcard goes", async () => {
    const { member, member2, admin } = org.users;
    const id = await send(member, "edited", "plain words");
    await send(member2, "edited", "a reply");

    let res = await org.api(member, "PATCH", `/messages/${id}`, { content: "now @**topic** please" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    let flags = await storedFlags(id, [member, member2, admin]);
    // The edited message is in the topic: its sender is a participant.
    expect(flags.get(member.id)).toContain("topic_wildcard_mentioned");
    expect(flags.get(member2.id)).toContain("topic_wildcard_mentioned");
    expect(flags.get(admin.id)).not.toContain("topic_wildcard_mentioned");

    res = await org.api(member, "PATCH", `/messages/${id}`, { content: "plain again" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    flags = await storedFlags(id, [member, member2]);
    expect(flags.get(member.id)).not.toContain("topic_wildcard_mentioned");
    expect(flags.get(member2.id)).not.toContain("topic_wildcard_mentioned");
  });

  it("on a large stream (the expand_stream_message job): participants only; resolution notice unread for them only", async () => {
    const { member, member2, admin } = org.users;
    // 100 users without a password (no scrypt), so the audience exceeds the inline limit of 100.
    const crowd: TestUser[] = [];
    for (let i = 0; i < 100; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          doCreateUser(org.stack.deps, org.realm, { email: `tp-crowd-${i + j}@test.example`, full_name: `TP Crowd ${i + j}`, role: Role.MEMBER }),
        ),
      );
      crowd.push(...batch.map((u) => ({ id: u.user_id, email: u.delivery_email, apiKey: u.api_key, fullName: u.full_name, role: u.role })));
    }
    const big = "tp-crowd";
    await createStream(org, member, big, { principals: [member.id, member2.id, admin.id, ...crowd.map((u) => u.id)] });
    await org.stack.drainDeferredWork();

    const first = await send(member, "crowd topic", "kick-off", big);
    await react(crowd[0]!, first);
    await org.stack.drainDeferredWork();

    const wildcard = await send(admin, "crowd topic", "@**topic** what do you think?", big);
    await org.stack.drainDeferredWork();
    let flags = await storedFlags(wildcard, [member, crowd[0]!, member2, crowd[1]!, admin]);
    expect(flags.get(member.id)).toEqual(["topic_wildcard_mentioned"]);
    expect(flags.get(crowd[0]!.id)).toEqual(["topic_wildcard_mentioned"]);
    expect(flags.get(member2.id)).toEqual([]);
    expect(flags.get(crowd[1]!.id)).toEqual([]);
    expect(flags.get(admin.id)).not.toContain("topic_wildcard_mentioned");

    // Resolving: the notice goes through the job too; unread only for the moved messages' senders and reactors.
    await rename(member2, first, "✔ crowd topic");
    await org.stack.drainDeferredWork();
    const last = (await topicMessages("✔ crowd topic", big)).at(-1)!;
    expect(last.content).toBe(notice(member2, "resolved"));
    flags = await storedFlags(last.id, [member, crowd[0]!, admin, member2, crowd[1]!]);
    expect(flags.get(member.id)).toEqual([]);
    expect(flags.get(crowd[0]!.id)).toEqual([]);
    expect(flags.get(admin.id)).toEqual([]);
    expect(flags.get(member2.id)).toEqual(["read"]);
    expect(flags.get(crowd[1]!.id)).toEqual(["read"]);
  }, 120_000);
});

describe("topic resolution notices", () => {
  it("are unread for the topic's participants and already read for everyone else", async () => {
    const { member, member2, admin, moderator } = org.users;
    const id = await send(member, "lunch", "where?");
    await react(member2, id);

    await rename(moderator, id, "✔ lunch");
    const last = (await topicMessages("✔ lunch")).at(-1)!;
    expect(last.content).toBe(notice(moderator, "resolved"));
    const flags = await storedFlags(last.id, [member, member2, admin, moderator]);
    expect(flags.get(member.id)).toEqual([]);
    expect(flags.get(member2.id)).toEqual([]);
    expect(flags.get(admin.id)).toEqual(["read"]);
    expect(flags.get(moderator.id)).toEqual(["read"]);
  });

  it("unresolving within the grace period deletes the resolved notice and posts none", async () => {
    const { member, member2, moderator } = org.users;
    const id = await send(member, "oops", "is this done?");
    const base = Date.now() - 600_000;
    setClock(base);
    await rename(moderator, id, "✔ oops");
    const resolved = (await topicMessages("✔ oops")).at(-1)!;
    expect(resolved.content).toBe(notice(moderator, "resolved"));

    // Exactly the grace period later still counts (Zulip deletes unless older than 60 s).
    setClock(base + 60_000);
    await rename(moderator, id, "oops");
    expect(await messageById(org.stack.deps, resolved.id)).toBeUndefined();
    expect((await getUserMessages(org.stack.deps, member.id, [resolved.id])).size).toBe(0);
    expect((await topicMessages("oops")).map((m) => m.content)).toEqual(["is this done?"]);
    expect(await topicMessages("✔ oops")).toEqual([]);
    for (const user of [member, member2]) {
      const deletes = (await eventsOf(org, user.id)).filter((e) => e.type === "delete_message" && e.message_ids?.includes(resolved.id));
      expect(deletes).toEqual([{ type: "delete_message", message_ids: [resolved.id], message_type: "stream", stream_id: expect.any(Number), topic: "oops" }]);
    }
  });

  it("resolving again at once after an unresolve deletes the unresolved notice (both directions)", async () => {
    const { member, moderator } = org.users;
    const id = await send(member, "flip", "flip-flop");
    const base = Date.now() - 600_000;
    setClock(base);
    await rename(moderator, id, "✔ flip");
    setClock(base + 120_000);
    await rename(moderator, id, "flip");
    const unresolved = (await topicMessages("flip")).at(-1)!;
    expect(unresolved.content).toBe(notice(moderator, "unresolved"));
    setClock(base + 130_000);
    await rename(moderator, id, "✔ flip");
    expect(await messageById(org.stack.deps, unresolved.id)).toBeUndefined();
    const contents = (await topicMessages("✔ flip")).map((m) => m.content);
    expect(contents).toEqual(["flip-flop", notice(moderator, "resolved")]);
  });

  it("beyond the grace period the previous notice stays and a new one is posted", async () => {
    const { member, moderator } = org.users;
    const id = await send(member, "slow", "take your time");
    const base = Date.now() - 600_000;
    setClock(base);
    await rename(moderator, id, "✔ slow");
    const resolved = (await topicMessages("✔ slow")).at(-1)!;

    setClock(base + 61_000);
    await rename(moderator, id, "slow");
    expect(await messageById(org.stack.deps, resolved.id)).toBeDefined();
    expect((await topicMessages("slow")).map((m) => m.content)).toEqual([
      "take your time",
      notice(moderator, "resolved"),
      notice(moderator, "unresolved"),
    ]);
    const deletes = (await eventsOf(org, member.id)).filter((e) => e.type === "delete_message" && e.message_ids?.includes(resolved.id));
    expect(deletes).toEqual([]);
  });

  it("only a Notification Bot resolution notice is deleted, not a user's last message", async () => {
    const { member, moderator } = org.users;
    const id = await send(member, "chatty", "start");
    const base = Date.now() - 600_000;
    setClock(base);
    await rename(moderator, id, "✔ chatty");
    // Someone posts after the notice, with the notice's very words.
    const copy = await send(member, "✔ chatty", notice(moderator, "resolved"));
    setClock(base + 10_000);
    await rename(moderator, id, "chatty");
    expect(await messageById(org.stack.deps, copy)).toBeDefined();
    expect((await topicMessages("chatty")).map((m) => m.content)).toEqual([
      "start",
      notice(moderator, "resolved"),
      notice(moderator, "resolved"),
      notice(moderator, "unresolved"),
    ]);
  });
});
