import { describe, expect, it } from "vitest";
import {
  addLiveMessage,
  addLocalEcho,
  applyDeleteMessage,
  applyFlags,
  applyPage,
  applyReaction,
  applyUpdateMessage,
  emptyList,
  firstPageParams,
  groupReactions,
  newerPageParams,
  olderPageParams,
  shownMessages,
  type MessageList,
} from "./messages.js";
import type { View } from "./narrow.js";
import { context, directMessage, ME, messageEvent, streamMessage } from "./test-fixtures.js";

const topicView: View = {
  kind: "narrow",
  terms: [
    { operator: "channel", operand: 1 },
    { operator: "topic", operand: "lunch" },
  ],
};
const ctx = context();

/** A topic list with messages 10, 20, 30 loaded, the newest end reached. */
function loaded(): MessageList {
  return applyPage(
    emptyList(topicView),
    { messages: [streamMessage(30, { flags: ["read"] }), streamMessage(10, { flags: ["read"] }), streamMessage(20)], found_oldest: false, found_newest: true },
    "first",
  );
}

const update = (over: Record<string, unknown>) =>
  ({ id: 1, type: "update_message", user_id: 11, rendering_only: false, message_id: 20, message_ids: [20], flags: [], edit_timestamp: 1_700_000_100, ...over }) as never;

describe("paging", () => {
  it("asks for the first page around the first unread in views that mark read, else the newest", () => {
    const list = emptyList(topicView);
    expect(firstPageParams(list, true)).toMatchObject({ anchor: "first_unread", num_before: 50, num_after: 50 });
    expect(firstPageParams(list, false)).toMatchObject({ anchor: "newest", num_before: 50, num_after: 0, apply_markdown: true, client_gravatar: false });
    expect(firstPageParams(list, true).narrow).toEqual([
      { operator: "channel", operand: 1 },
      { operator: "topic", operand: "lunch" },
    ]);
  });

  it("sorts and dedupes, records both ends and the first unread", () => {
    const list = loaded();
    expect(list.messages.map((m) => m.id)).toEqual([10, 20, 30]);
    expect(list).toMatchObject({ foundOldest: false, foundNewest: true, loaded: true, anchorId: 20 });
  });

  it("pages older from the oldest loaded ID and merges without duplicates", () => {
    const list = loaded();
    expect(olderPageParams(list)).toMatchObject({ anchor: 10, num_before: 100, num_after: 0, include_anchor: false });
    expect(newerPageParams(list)).toBeUndefined();
    const older = applyPage(list, { messages: [streamMessage(5), streamMessage(10)], found_oldest: true, found_newest: false }, "older");
    expect(older.messages.map((m) => m.id)).toEqual([5, 10, 20, 30]);
    expect(older).toMatchObject({ foundOldest: true, foundNewest: true });
    expect(olderPageParams(older)).toBeUndefined();
  });

  it("pages newer from the newest loaded ID until found_newest", () => {
    const first = applyPage(emptyList(topicView), { messages: [streamMessage(10)], found_oldest: true, found_newest: false }, "first");
    expect(newerPageParams(first)).toMatchObject({ anchor: 10, num_before: 0, num_after: 100, include_anchor: false });
    const next = applyPage(first, { messages: [streamMessage(11)], found_oldest: false, found_newest: true }, "newer");
    expect(next).toMatchObject({ foundOldest: true, foundNewest: true });
  });
});

describe("live messages and local echo", () => {
  it("adds a matching message only when the newest messages are loaded", () => {
    const list = loaded();
    const next = addLiveMessage(list, messageEvent(streamMessage(40)), ctx);
    expect(next.messages.map((m) => m.id)).toEqual([10, 20, 30, 40]);
    expect(addLiveMessage(list, messageEvent(streamMessage(41, { subject: "other" })), ctx)).toBe(list);
    const gap = { ...list, foundNewest: false };
    expect(addLiveMessage(gap, messageEvent(streamMessage(42)), ctx)).toBe(gap);
  });

  it("shows a local echo at once and replaces it with the server's copy", () => {
    const echo = streamMessage(30.01, { local_id: "30.01", sender_id: ME, flags: ["read"] });
    const list = addLocalEcho(loaded(), echo, ctx);
    expect(shownMessages(list).map((m) => m.id)).toEqual([10, 20, 30, 30.01]);
    const confirmed = addLiveMessage(list, messageEvent(streamMessage(50, { sender_id: ME, flags: ["read"] }), 3, { local_message_id: "30.01" }), ctx);
    expect(confirmed.local).toEqual([]);
    expect(shownMessages(confirmed).map((m) => m.id)).toEqual([10, 20, 30, 50]);
  });

  it("does not echo into views that would not show the message", () => {
    const list = loaded();
    expect(addLocalEcho(list, directMessage(30.01, ME, [11], { local_id: "x" }), ctx)).toBe(list);
  });
});

describe("events on loaded messages", () => {
  it("edits content and moves messages out of a topic view", () => {
    const edited = applyUpdateMessage(loaded(), update({ rendered_content: "<p>new</p>", content: "new" }), ctx);
    expect(edited.messages[1]).toMatchObject({ id: 20, content: "<p>new</p>", last_edit_timestamp: 1_700_000_100 });
    const moved = applyUpdateMessage(loaded(), update({ message_ids: [20, 30], subject: "dinner", orig_subject: "lunch", stream_id: 1 }), ctx);
    expect(moved.messages.map((m) => m.id)).toEqual([10]);
    const feed = applyPage(emptyList({ kind: "feed" }), { messages: [streamMessage(20)], found_oldest: true, found_newest: true }, "first");
    const feedMoved = applyUpdateMessage(feed, update({ subject: "dinner", new_stream_id: 2, stream_id: 1 }), ctx);
    expect(feedMoved.messages[0]).toMatchObject({ id: 20, subject: "dinner", stream_id: 2 });
  });

  it("deletes one or many messages", () => {
    const del = (ev: Record<string, unknown>) => applyDeleteMessage(loaded(), { id: 1, type: "delete_message", message_type: "stream", ...ev } as never);
    expect(del({ message_id: 20 }).messages.map((m) => m.id)).toEqual([10, 30]);
    expect(del({ message_ids: [10, 30, 99] }).messages.map((m) => m.id)).toEqual([20]);
  });

  it("adds a reaction once and removes it", () => {
    const ev = (op: "add" | "remove", user_id: number) =>
      ({ id: 1, type: "reaction", op, message_id: 20, emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji", user_id }) as never;
    let list = applyReaction(loaded(), ev("add", 11));
    list = applyReaction(list, ev("add", 11));
    list = applyReaction(list, ev("add", ME));
    expect(groupReactions(list.messages[1]!.reactions)).toEqual([
      { emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji", user_ids: [11, ME] },
    ]);
    list = applyReaction(list, ev("remove", 11));
    expect(list.messages[1]!.reactions.map((r) => r.user_id)).toEqual([ME]);
  });

  it("adds and removes flags, for all messages when all is set", () => {
    const flags = (op: "add" | "remove", flag: string, messages: number[], all = false) =>
      ({ id: 1, type: "update_message_flags", op, operation: op, flag, messages, all }) as never;
    let list = applyFlags(loaded(), flags("add", "starred", [20]));
    expect(list.messages[1]!.flags).toEqual(["starred"]);
    list = applyFlags(list, flags("add", "read", [], true));
    expect(list.messages.every((m) => m.flags.includes("read"))).toBe(true);
    list = applyFlags(list, flags("remove", "starred", [20]));
    expect(list.messages[1]!.flags).toEqual(["read"]);
  });
});
