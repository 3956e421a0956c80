import { describe, expect, it } from "vitest";
import { emptyList } from "./messages.js";
import { context, streamMessage } from "./test-fixtures.js";
import {
  dropMovedTopic,
  followMovedTopic,
  isResolved,
  moveTopicParams,
  policyAllows,
  refilterForMuting,
  resolvedName,
  resolveParams,
  topicPermissions,
  unresolvedName,
} from "./topics.js";
import type { DeliveredEvent } from "./types.js";

const NOW = 1_800_000_000;
const member = { role: 400, dateJoinedSeconds: NOW - 30 * 86_400 };
const newMember = { role: 400, dateJoinedSeconds: NOW - 86_400 };
const moderator = { role: 300, dateJoinedSeconds: NOW };
const guest = { role: 600, dateJoinedSeconds: NOW - 90 * 86_400 };

describe("resolve prefix", () => {
  it("resolves by adding one ✔ and unresolves by removing every leading one", () => {
    expect(resolvedName("lunch")).toBe("✔ lunch");
    expect(resolvedName("✔ lunch")).toBe("✔ lunch");
    expect(unresolvedName("✔ ✔ lunch")).toBe("lunch");
    expect(unresolvedName("lunch ✔ ")).toBe("lunch ✔ ");
    expect(isResolved("✔ lunch")).toBe(true);
    expect(isResolved("✔lunch")).toBe(false);
  });

  it("builds the rename of the whole topic with a notice in the new place only", () => {
    expect(resolveParams("lunch")).toEqual({ propagate_mode: "change_all", topic: "✔ lunch", send_notification_to_old_thread: false, send_notification_to_new_thread: true });
    expect(resolveParams("✔ lunch")).toMatchObject({ topic: "lunch" });
  });
});

describe("moveTopicParams", () => {
  it("sends only what changed, for the whole topic", () => {
    const base = { fromStreamId: 1, fromTopic: "a", toStreamId: 1, toTopic: "a", notifyOld: false, notifyNew: true };
    expect(moveTopicParams({ ...base, toTopic: "b" })).toEqual({ propagate_mode: "change_all", topic: "b", send_notification_to_old_thread: false, send_notification_to_new_thread: true });
    expect(moveTopicParams({ ...base, toStreamId: 2, notifyOld: true })).toEqual({ propagate_mode: "change_all", stream_id: 2, send_notification_to_old_thread: true, send_notification_to_new_thread: true });
  });
});

describe("topic permissions", () => {
  it("follows Zulip's integer policies", () => {
    expect(policyAllows(1, member, 10, NOW)).toBe(true);
    expect(policyAllows(1, guest, 10, NOW)).toBe(false);
    expect(policyAllows(3, member, 10, NOW)).toBe(true);
    expect(policyAllows(3, newMember, 10, NOW)).toBe(false);
    expect(policyAllows(4, member, 0, NOW)).toBe(false);
    expect(policyAllows(4, moderator, 0, NOW)).toBe(true);
    expect(policyAllows(5, guest, 0, NOW)).toBe(true);
    expect(policyAllows(2, moderator, 0, NOW)).toBe(false);
  });

  it("says why a member may not move a topic to another stream under the default policy", () => {
    const realm = { realm_edit_topic_policy: 5, realm_move_messages_between_streams_policy: 4 };
    expect(topicPermissions(realm, member, NOW)).toEqual({
      rename: null,
      move: "You do not have permission to move messages to another channel in this organization.",
    });
    expect(topicPermissions(realm, moderator, NOW)).toEqual({ rename: null, move: null });
  });

  it("applies the time limits to members, not to moderators", () => {
    const realm = { realm_edit_topic_policy: 1, realm_move_messages_between_streams_policy: 1, realm_move_messages_within_stream_limit_seconds: 3600, realm_move_messages_between_streams_limit_seconds: null };
    expect(topicPermissions(realm, member, NOW, NOW - 7200).rename).toBe("The time limit for editing this topic has passed.");
    expect(topicPermissions(realm, member, NOW, NOW - 7200).move).toBeNull();
    expect(topicPermissions(realm, moderator, NOW, NOW - 7200).rename).toBeNull();
    expect(topicPermissions(realm, member, NOW).rename).toBeNull();
  });
});

describe("followMovedTopic", () => {
  const topicView = { kind: "narrow" as const, terms: [{ operator: "channel" as const, operand: 1 }, { operator: "topic" as const, operand: "lunch" }] };
  const move = (over: Partial<DeliveredEvent<"update_message">>): DeliveredEvent<"update_message"> =>
    ({ id: 5, type: "update_message", user_id: 11, edit_timestamp: NOW, message_id: 7, message_ids: [7, 8], flags: [], rendering_only: false, stream_id: 1, orig_subject: "Lunch", subject: "dinner", propagate_mode: "change_all", ...over }) as DeliveredEvent<"update_message">;

  it("goes to the new stream and topic when the whole topic moves", () => {
    expect(followMovedTopic(topicView, move({ new_stream_id: 2 }))).toEqual({
      kind: "narrow",
      terms: [{ operator: "channel", operand: 2 }, { operator: "topic", operand: "dinner" }],
    });
    expect(followMovedTopic(topicView, move({ subject: undefined, new_stream_id: 3 }))).toMatchObject({ terms: [{ operand: 3 }, { operand: "Lunch" }] });
  });

  it("stays for another topic, one message moved, or a view that is not a topic", () => {
    expect(followMovedTopic(topicView, move({ orig_subject: "breakfast" }))).toBeUndefined();
    expect(followMovedTopic(topicView, move({ propagate_mode: "change_one" }))).toBeUndefined();
    expect(followMovedTopic(topicView, move({ propagate_mode: "change_later" }), [1, 2])).toBeUndefined();
    expect(followMovedTopic(topicView, move({ propagate_mode: "change_later" }), [7])).toBeDefined();
    expect(followMovedTopic({ kind: "feed" }, move({}))).toBeUndefined();
  });
});

describe("refilterForMuting", () => {
  it("drops a newly muted topic's messages from the combined feed only", () => {
    const feed = { ...emptyList({ kind: "feed" }), messages: [streamMessage(1), streamMessage(2, { subject: "other" })] };
    const ctx = context({ topicPolicy: (_s, t) => (t === "lunch" ? 1 : 0) });
    expect(refilterForMuting(feed, ctx).messages.map((m) => m.id)).toEqual([2]);
    const stream = { ...feed, view: { kind: "narrow" as const, terms: [{ operator: "channel" as const, operand: 1 }] } };
    expect(refilterForMuting(stream, ctx)).toBe(stream);
  });
});

describe("dropMovedTopic", () => {
  it("takes a wholly moved topic out of its old stream's list only", () => {
    const topics = new Map([[1, [{ name: "Lunch", max_id: 9 }, { name: "tea", max_id: 5 }]]]);
    const moved = dropMovedTopic(topics, { propagate_mode: "change_all", stream_id: 1, orig_subject: "lunch", subject: "✔ lunch" });
    expect(moved.get(1)).toEqual([{ name: "tea", max_id: 5 }]);
    expect(dropMovedTopic(topics, { propagate_mode: "change_later", stream_id: 1, orig_subject: "lunch", subject: "x" })).toBe(topics);
    expect(dropMovedTopic(topics, { propagate_mode: "change_all", stream_id: 2, orig_subject: "lunch", subject: "x" })).toBe(topics);
  });
});
