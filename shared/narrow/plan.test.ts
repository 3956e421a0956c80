import { describe, expect, it } from "vitest";
import type { StreamRecord } from "../data/records/stream.js";

import { planDriver } from "./plan.js";
import type { ResolvedNarrow, ResolvedTerm } from "./types.js";

const stream = { stream_id: 7, recipient_id: 70 } as StreamRecord;
const narrow = (terms: ResolvedTerm[], includeHistory = false): ResolvedNarrow => ({ terms, includeHistory, near: undefined });
const where = (n: ResolvedNarrow) => {
  const d = planDriver(n, 5, 1);
  return d.source === "index" ? { index: d.where.index, pk: d.where.pk, items: d.items, exact: d.exact } : d;
};

describe("planDriver", () => {
  it("reads the stream index with history access, else the viewer's rows for the stream", () => {
    const t: ResolvedTerm = { kind: "stream", negated: false, stream, historyAccess: true };
    expect(where(narrow([t], true))).toEqual({ index: "gsi1", pk: "STREAMMSG#7", items: "message", exact: true });
    expect(where(narrow([{ ...t, historyAccess: false }]))).toEqual({ index: "gsi1", pk: "UMREC#5#70", items: "user_message", exact: true });
  });

  it("uses the topic index for stream + topic, and filters further terms", () => {
    const s: ResolvedTerm = { kind: "stream", negated: false, stream, historyAccess: true };
    const topic: ResolvedTerm = { kind: "topic", negated: false, topic: "Lunch" };
    expect(where(narrow([s, topic], true))).toMatchObject({ index: "gsi2", pk: "TOPICMSG#7#lunch", exact: true });
    const extra: ResolvedTerm = { kind: "has", negated: false, what: "link" };
    expect(where(narrow([s, topic, extra], true))).toMatchObject({ index: "gsi2", exact: false });
  });

  it("uses the sparse flag indexes and the conversation index", () => {
    expect(where(narrow([{ kind: "is", negated: false, what: "starred" }]))).toMatchObject({ index: "gsi2", pk: "UMSTAR#5" });
    expect(where(narrow([{ kind: "is", negated: false, what: "unread" }]))).toMatchObject({ index: "gsi3", pk: "UMUNREAD#5" });
    expect(where(narrow([{ kind: "is", negated: false, what: "mentioned" }]))).toMatchObject({ index: "gsi4", pk: "UMMENTION#5" });
    expect(where(narrow([{ kind: "is", negated: false, what: "dm" }]))).toMatchObject({ index: "gsi5", pk: "UMDM#5" });
    expect(where(narrow([{ kind: "dm", negated: false, userIds: [5, 6], recipientId: 99 }]))).toMatchObject({ pk: "UMREC#5#99" });
    expect(planDriver(narrow([{ kind: "dm", negated: false, userIds: [5, 6], recipientId: undefined }]), 5, 1)).toEqual({ source: "none" });
  });

  it("drives search from the longest term's postings, sender from the sender index, the rest from the viewer's history", () => {
    expect(where(narrow([{ kind: "search", negated: false, terms: ["cool", "sunglasses"] }]))).toMatchObject({
      pk: "SEARCH#1#sunglasses",
      items: "posting",
    });
    expect(where(narrow([{ kind: "sender", negated: false, userId: 9 }]))).toMatchObject({ index: "gsi3", pk: "SENDERMSG#9", exact: false });
    expect(where(narrow([]))).toEqual({ index: undefined, pk: "UM#5", items: "user_message", exact: true });
    expect(where(narrow([{ kind: "stream", negated: true, stream, historyAccess: true }]))).toMatchObject({ pk: "UM#5", exact: false });
    expect(planDriver(narrow([{ kind: "id", negated: false, id: 12 }]), 5, 1)).toEqual({ source: "ids", ids: [12] });
  });
});
