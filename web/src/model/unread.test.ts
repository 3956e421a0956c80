import { describe, expect, it } from "vitest";
import {
  topicKey,
  unreadAddMessage,
  unreadConversations,
  unreadCounts,
  unreadFromRegister,
  unreadMove,
  unreadRemove,
  unreadRestore,
  type Muting,
} from "./unread.js";
import { directMessage, ME, streamMessage } from "./test-fixtures.js";

const noMuting: Muting = { isStreamMuted: () => false, topicPolicy: () => 0 };

const registered = () =>
  unreadFromRegister(
    {
      pms: [{ other_user_id: 11, sender_id: 11, unread_message_ids: [1, 2] }],
      huddles: [{ user_ids_string: `${ME},11,12`, unread_message_ids: [3] }],
      streams: [
        { stream_id: 1, topic: "lunch", unread_message_ids: [4, 5] },
        { stream_id: 2, topic: "Quiet", unread_message_ids: [6] },
      ],
      mentions: [5, 99],
      old_unreads_missing: false,
    },
    ME,
  );

describe("unreadFromRegister / unreadCounts", () => {
  it("counts per stream, topic, conversation and mentions", () => {
    const counts = unreadCounts(registered(), noMuting);
    expect(counts.total).toBe(6);
    expect([...counts.byStream]).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(counts.byTopic.get(topicKey(1, "LUNCH"))).toBe(2);
    expect([...counts.byConversation]).toEqual([
      ["11", 2],
      ["11,12", 1],
    ]);
    // A mention of a message register does not list as unread is not counted.
    expect(counts.mentions).toBe(1);
  });

  it("leaves muted streams and topics out of the total, muted topics out of the stream", () => {
    const muting: Muting = { isStreamMuted: (id) => id === 2, topicPolicy: (s, t) => (s === 1 && t === "lunch" ? 1 : 0) };
    const counts = unreadCounts(registered(), muting);
    expect(counts.total).toBe(3);
    expect(counts.byStream.get(1)).toBeUndefined();
    expect(counts.byStream.get(2)).toBe(1);
    expect(counts.byTopic.get(topicKey(1, "lunch"))).toBe(2);
    const unmuted: Muting = { isStreamMuted: () => true, topicPolicy: (s) => (s === 2 ? 2 : 0) };
    expect(unreadCounts(registered(), unmuted).total).toBe(4);
  });
});

describe("unread changes", () => {
  it("adds a new unread message, not a read one (the reader's own)", () => {
    const s0 = registered();
    const s1 = unreadAddMessage(s0, streamMessage(7, { subject: "new" }), ["mentioned"], ME);
    expect(unreadCounts(s1, noMuting)).toMatchObject({ total: 7, mentions: 2 });
    expect(unreadAddMessage(s1, directMessage(8, ME, [11]), ["read"], ME)).toBe(s1);
    const s2 = unreadAddMessage(s1, directMessage(9, 12), [], ME);
    expect(unreadCounts(s2, noMuting).byConversation.get("12")).toBe(1);
  });

  it("removes messages marked read, and everything for all", () => {
    const s = unreadRemove(registered(), [1, 5, 1000]);
    const counts = unreadCounts(s, noMuting);
    expect(counts).toMatchObject({ total: 4, mentions: 0 });
    expect(counts.byConversation.get("11")).toBe(1);
    expect(unreadRemove(s, [1000])).toBe(s);
    expect(unreadCounts(unreadRemove(s, [], true), noMuting).total).toBe(0);
  });

  it("restores messages marked unread from message_details or loaded messages", () => {
    const s0 = unreadRemove(registered(), [1, 2, 3, 4, 5, 6]);
    const s1 = unreadRestore(
      s0,
      [4, 3, 20, 21],
      {
        "4": { type: "stream", stream_id: 1, topic: "lunch", mentioned: true },
        "3": { type: "private", user_ids: [11, 12] },
      },
      (id) => (id === 20 ? directMessage(20, 11, [], { flags: ["mentioned"] }) : undefined),
      ME,
    );
    const counts = unreadCounts(s1, noMuting);
    expect(counts.total).toBe(3);
    expect(counts.byConversation.get("11,12")).toBe(1);
    expect(counts.byConversation.get("11")).toBe(1);
    expect(counts.mentions).toBe(2);
  });

  it("moves unread messages to their new stream and topic", () => {
    const s = unreadMove(registered(), [4, 1], 2, "dinner");
    const counts = unreadCounts(s, noMuting);
    expect(counts.byTopic.get(topicKey(1, "lunch"))).toBe(1);
    expect(counts.byTopic.get(topicKey(2, "dinner"))).toBe(1);
    expect(counts.byConversation.get("11")).toBe(2);
    expect(unreadMove(s, [1, 2], 3, "x")).toBe(s);
  });

  it("lists unread conversations newest first for the inbox", () => {
    const { topics, conversations } = unreadConversations(registered());
    expect(topics.map((t) => [t.stream_id, t.topic, t.ids])).toEqual([
      [2, "Quiet", [6]],
      [1, "lunch", [4, 5]],
    ]);
    expect(conversations.map((c) => c.key)).toEqual(["11,12", "11"]);
  });
});
