import { describe, expect, it } from "vitest";
import type { StreamRecord } from "../data/records/stream.js";

import { planDriver } from "./plan.js";
import type { ResolvedNarrow, ResolvedTerm } from "./types.js";

const stream = { stream_id: 7, recipient_id: 70 } as StreamRecord;
const narrow = (terms: ResolvedTerm[], includeHistory = false): ResolvedNarrow => ({ terms, includeHistory });
const where = (n: ResolvedNarrow) => {
  const d = planDriver(n, 5, 1);
  return d.source === "index" ? { ...d.where, items: d.items, exact: d.exact } : d;
};

describe("planDriver", () => {
  it("reads the stream index with history access, and without it too (the viewer's rows checked, expected dense)", () => {
    const t: ResolvedTerm = { kind: "stream", negated: false, stream, historyAccess: true };
    expect(where(narrow([t], true))).toEqual({ of: "stream-messages", streamId: 7, items: "message", exact: true });
    expect(planDriver(narrow([{ ...t, historyAccess: false }]), 5, 1)).toEqual({
      source: "index",
      where: { of: "stream-messages", streamId: 7 },
      items: "message",
      exact: false,
      dense: true,
    });
    const topic: ResolvedTerm = { kind: "topic", negated: false, topic: "Lunch" };
    expect(planDriver(narrow([{ ...t, historyAccess: false }, topic]), 5, 1)).toMatchObject({
      where: { of: "topic-messages", streamId: 7, topic: "Lunch" },
      exact: false,
      dense: true,
    });
    const link: ResolvedTerm = { kind: "has", negated: false, what: "link" };
    expect(planDriver(narrow([{ ...t, historyAccess: false }, link]), 5, 1)).not.toHaveProperty("dense");
  });

  it("drives a stream or topic narrow with a flag term from the viewer's sparse flag source", () => {
    const t: ResolvedTerm = { kind: "stream", negated: false, stream, historyAccess: true };
    const topic: ResolvedTerm = { kind: "topic", negated: false, topic: "Lunch" };
    const is = (what: string): ResolvedTerm => ({ kind: "is", negated: false, what });
    expect(where(narrow([t, is("unread")]))).toEqual({ of: "unread-user-messages", userId: 5, items: "user_message", exact: false });
    expect(where(narrow([t, topic, is("starred")]))).toEqual({ of: "starred-user-messages", userId: 5, items: "user_message", exact: false });
    expect(where(narrow([t, is("mentioned"), is("unread")]))).toMatchObject({ of: "mentioned-user-messages" });
    expect(where(narrow([t, { ...is("unread"), negated: true }]))).toMatchObject({ of: "stream-messages", items: "message", exact: false });
    expect(where(narrow([t, topic, is("resolved")]))).toMatchObject({ of: "topic-messages", exact: false });
  });

  it("uses the topic index for stream + topic, and filters further terms", () => {
    const s: ResolvedTerm = { kind: "stream", negated: false, stream, historyAccess: true };
    const topic: ResolvedTerm = { kind: "topic", negated: false, topic: "Lunch" };
    expect(where(narrow([s, topic], true))).toMatchObject({ of: "topic-messages", streamId: 7, topic: "Lunch", exact: true });
    const extra: ResolvedTerm = { kind: "has", negated: false, what: "link" };
    expect(where(narrow([s, topic, extra], true))).toMatchObject({ of: "topic-messages", exact: false });
  });

  it("uses the sparse flag indexes and the conversation index", () => {
    expect(where(narrow([{ kind: "is", negated: false, what: "starred" }]))).toMatchObject({ of: "starred-user-messages", userId: 5 });
    expect(where(narrow([{ kind: "is", negated: false, what: "unread" }]))).toMatchObject({ of: "unread-user-messages", userId: 5 });
    expect(where(narrow([{ kind: "is", negated: false, what: "mentioned" }]))).toMatchObject({ of: "mentioned-user-messages", userId: 5 });
    expect(where(narrow([{ kind: "is", negated: false, what: "dm" }]))).toMatchObject({ of: "private-user-messages", userId: 5 });
    expect(where(narrow([{ kind: "dm", negated: false, userIds: [5, 6], recipientId: 99 }]))).toMatchObject({ of: "recipient-user-messages", userId: 5, recipientId: 99 });
    expect(planDriver(narrow([{ kind: "dm", negated: false, userIds: [5, 6], recipientId: undefined }]), 5, 1)).toEqual({ source: "none" });
  });

  it("drives search from the longest term's postings, sender from the sender index, the rest from the viewer's history", () => {
    expect(where(narrow([{ kind: "search", negated: false, terms: ["cool", "sunglasses"] }]))).toMatchObject({
      of: "search-postings",
      realmId: 1,
      term: "sunglasses",
      items: "posting",
    });
    expect(where(narrow([{ kind: "sender", negated: false, userId: 9 }]))).toMatchObject({ of: "sender-messages", senderId: 9, exact: false });
    expect(where(narrow([]))).toEqual({ of: "user-messages", userId: 5, items: "user_message", exact: true });
    expect(where(narrow([{ kind: "stream", negated: true, stream, historyAccess: true }]))).toMatchObject({ of: "user-messages", userId: 5, exact: false });
    expect(planDriver(narrow([{ kind: "id", negated: false, id: 12 }]), 5, 1)).toEqual({ source: "ids", ids: [12] });
  });
});
