import { describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, markEvents, subscribeTo } from "./streams-helpers.js";

/**
 * Security findings on the message paths: moves that could publish
 * protected history, and inputs that failed after the commit point.
 */

const org = useTestOrg();

async function send(user: TestUser, stream: string, topic: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function topicIds(user: TestUser, stream: string, topic: string): Promise<number[]> {
  const res = await org.api(user, "GET", "/messages", {
    anchor: "newest",
    num_before: 100,
    num_after: 0,
    narrow: [
      { operator: "stream", operand: stream },
      { operator: "topic", operand: topic },
    ],
  });
  expect(res.status).toBe(200);
  return (res.body.messages as { id: number }[]).map((m) => m.id);
}

describe("moving a topic out of a stream with protected history", () => {
  it("moves only the messages the moderator who joined late can access", async () => {
    const { owner, moderator, member, member2 } = org.users;
    // Prepare: a private stream without shared history; two messages before the moderator joins.
    await createStream(org, owner, "sec-protected", {
      invite_only: true,
      history_public_to_subscribers: false,
      principals: [owner.id, member.id],
    });
    await createStream(org, moderator, "sec-open", { principals: [moderator.id, member2.id] });
    const early1 = await send(owner, "sec-protected", "plans", "early secret one");
    const early2 = await send(member, "sec-protected", "plans", "early secret two");
    await subscribeTo(org, owner, ["sec-protected"], { principals: [moderator.id] });
    const late = await send(member, "sec-protected", "plans", "late message");
    const marks = await markEvents(org, [owner]);

    // Act: the moderator moves the whole topic to a public stream.
    const res = await org.api(moderator, "PATCH", `/messages/${late}`, {
      stream_id: (await org.api(moderator, "GET", "/get_stream_id", { stream: "sec-open" })).body.stream_id,
      propagate_mode: "change_all",
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });

    // Assess: only the late message moved; the early ones stay where they were.
    expect(res.body).toMatchObject({ result: "success" });
    expect(await topicIds(member2, "sec-open", "plans")).toEqual([late]);
    expect(await topicIds(owner, "sec-protected", "plans")).toEqual([early1, early2]);
    const single = await org.api(member2, "GET", `/messages/${early1}`);
    expect(single.status).toBe(400);
    expect(single.body).toMatchObject({ result: "error", msg: "Invalid message(s)" });
    const moves = (await marks.since(owner)).filter((e) => e.type === "update_message");
    expect(moves).toHaveLength(1);
    expect(moves[0]!.message_ids).toEqual([late]);
    expect(moves[0]!.propagate_mode).toBe("change_all");
  });
});

describe("old messages show their sender and DM participants as they are now", () => {
  it("a new name and a restricted email reach GET /messages and GET /messages/{id}, guests included", async () => {
    const { owner, member, member2, guest } = org.users;
    // Prepare: a stream message the guest can read and a DM, both by member2 with a visible email.
    await createStream(org, owner, "sec-hydrate", { principals: [owner.id, member2.id, guest.id] });
    const streamMessage = await send(member2, "sec-hydrate", "names", "before the change");
    const dm = await org.api(member2, "POST", "/messages", { type: "private", to: JSON.stringify([member.id]), content: "hi" });
    expect(dm.body).toMatchObject({ result: "success" });
    const before = await org.api(guest, "GET", `/messages/${streamMessage}`);
    expect(before.body.message.sender_email).toBe(member2.email);

    // Act: member2 renames and hides their email from everyone.
    expect((await org.api(member2, "PATCH", "/settings", { full_name: "Renamed Sender" })).status).toBe(200);
    expect((await org.api(member2, "PATCH", "/settings", { email_address_visibility: 4 })).status).toBe(200);

    // Assess: the guest sees the new name and the fake address, in both fetch paths.
    const fake = new RegExp(`^user${member2.id}@`);
    const single = await org.api(guest, "GET", `/messages/${streamMessage}`);
    expect(single.body.message).toMatchObject({ sender_full_name: "Renamed Sender" });
    expect(single.body.message.sender_email).toMatch(fake);
    const page = await org.api(guest, "GET", "/messages", {
      anchor: streamMessage,
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: "stream", operand: "sec-hydrate" }],
    });
    expect(page.body.messages).toHaveLength(1);
    expect(page.body.messages[0]).toMatchObject({ id: streamMessage, sender_full_name: "Renamed Sender" });
    expect(page.body.messages[0].sender_email).toMatch(fake);
    // The DM's recipient sees the current sender and participant entry.
    const dmPage = await org.api(member, "GET", "/messages", {
      anchor: dm.body.id,
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: "dm", operand: [member2.id] }],
    });
    const shown = dmPage.body.messages[0];
    expect(shown).toMatchObject({ id: dm.body.id, sender_full_name: "Renamed Sender" });
    expect(shown.sender_email).toMatch(fake);
    const entry = (shown.display_recipient as { id: number; email: string; full_name: string }[]).find((u) => u.id === member2.id)!;
    expect(entry.full_name).toBe("Renamed Sender");
    expect(entry.email).toMatch(fake);
    expect(shown.display_recipient.find((u: { id: number }) => u.id === member.id)).toMatchObject({ email: member.email });
  });
});

describe("POST /messages bounds what its event carries before storing anything", () => {
  it.each([
    ["local_id", { local_id: "x".repeat(500_000) }],
    ["queue_id", { queue_id: "q".repeat(101) }],
  ])("an oversized %s is refused and nothing is stored", async (name, extra) => {
    const { member } = org.users;
    await createStream(org, member, "sec-echo");
    const marker = `echo bound ${name}`;
    const res = await org.api(member, "POST", "/messages", { type: "stream", to: "sec-echo", topic: "t", content: marker, ...extra });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: `${name} is too long (limit: 100 characters)` });
    expect(await topicIds(member, "sec-echo", "t")).toEqual([]);
  });
});

describe("inputs past DynamoDB's limits answer 400, never 500", () => {
  it("content whose rendering exceeds the item limit: 400 Unable to render message, nothing stored", async () => {
    const { member } = org.users;
    await createStream(org, member, "sec-render");
    // 10,000 bytes of source (the length limit), about 200 KB of emoji HTML.
    const content = ":+1:".repeat(2500);
    const res = await org.api(member, "POST", "/messages", { type: "stream", to: "sec-render", topic: "tex", content });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Unable to render message" });
    expect(await topicIds(member, "sec-render", "tex")).toEqual([]);

    // The same content as an edit is refused and leaves the message as it was.
    const id = await send(member, "sec-render", "tex", "small");
    const edit = await org.api(member, "PATCH", `/messages/${id}`, { content });
    expect(edit.status).toBe(400);
    expect(edit.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Unable to render message" });
    const after = await org.api(member, "GET", `/messages/${id}`, { apply_markdown: false });
    expect(after.body.message.content).toBe("small");
  });

  it("20 concurrent removals of one reaction: one 200, the rest Reaction doesn't exist", async () => {
    const { member, member2 } = org.users;
    await createStream(org, member, "sec-react", { principals: [member.id, member2.id] });
    const id = await send(member, "sec-react", "r", "react to me");
    // Other reactions around it, so the target sits mid-list.
    for (const emoji of ["smile", "octopus", "heart"]) {
      expect((await org.api(member2, "POST", `/messages/${id}/reactions`, { emoji_name: emoji })).status).toBe(200);
    }
    expect((await org.api(member, "POST", `/messages/${id}/reactions`, { emoji_name: "octopus" })).status).toBe(200);
    expect((await org.api(member2, "DELETE", `/messages/${id}/reactions`, { emoji_name: "smile" })).status).toBe(200);

    const results = await Promise.all(
      Array.from({ length: 20 }, () => org.api(member2, "DELETE", `/messages/${id}/reactions`, { emoji_name: "octopus" })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Reaction doesn't exist." });
    }
    const after = await org.api(member, "GET", `/messages/${id}`);
    const left = (after.body.message.reactions as { emoji_name: string; user_id: number }[]).map((r) => [r.emoji_name, r.user_id]);
    expect(left).toEqual([
      ["heart", member2.id],
      ["octopus", member.id],
    ]);
  });

  it("a ~1 MB topic_name to mark_topic_as_read: 400 No such topic", async () => {
    const { member } = org.users;
    const stream = await createStream(org, member, "sec-topic");
    const topic = "t".repeat(1_000_000);
    const res = await org.api(member, "POST", "/mark_topic_as_read", { stream_id: stream.stream_id, topic_name: topic });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: `No such topic '${topic}'` });
    // DynamoDB Local does not check index key sizes; shared/data/id-index.test.ts
    // checks that no Query with such a key is sent.
  });
});
