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
