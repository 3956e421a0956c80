import { describe, expect, it } from "vitest";
import { MOVE_CHAIN_MAX_IDS, moveMessagesJobs, rowsWrittenPerMessage, streamMoveSlice } from "./move-jobs.js";

const base = { topic: "t", prev_topic: "t", user_id: 1, timestamp: 1_700_000_000, realm_id: 2, prev_stream_id: 3, new_stream_id: 4 };

describe("moveMessagesJobs", () => {
  it("starts one chain per 10,000 IDs, in order, each payload far below SQS's 256 KB", () => {
    // Prepare
    const ids = Array.from({ length: 25_000 }, (_, i) => 1_000_000_000 + i);
    // Act
    const jobs = moveMessagesJobs(base, ids);
    // Assess
    expect(jobs.map((j) => j.payload.message_ids.length)).toEqual([MOVE_CHAIN_MAX_IDS, MOVE_CHAIN_MAX_IDS, 5000]);
    expect(jobs.flatMap((j) => j.payload.message_ids)).toEqual(ids);
    for (const j of jobs) {
      expect(j).toMatchObject({ kind: "move_messages", payload: base });
      expect(Buffer.byteLength(JSON.stringify(j))).toBeLessThan(150_000);
    }
  });

  it("never makes a chain longer than the maximum, and nothing for no IDs", () => {
    expect(moveMessagesJobs(base, [1, 2, 3], 50_000)).toHaveLength(1);
    expect(moveMessagesJobs(base, [])).toEqual([]);
  });
});

describe("streamMoveSlice", () => {
  it("spends about 5,000 rows per job, between 5 and 200 messages", () => {
    expect(streamMoveSlice(0)).toBe(200);
    expect(streamMoveSlice(3)).toBe(200);
    expect(streamMoveSlice(50)).toBe(100);
    expect(streamMoveSlice(1000)).toBe(5);
    expect(streamMoveSlice(100_000)).toBe(5);
  });
});

describe("rowsWrittenPerMessage", () => {
  it("counts only rows that go (old subscribers leaving) or come (joiners of a protected-history destination)", () => {
    // Same subscribers: no row changes, whatever their number.
    expect(rowsWrittenPerMessage([1, 2, 3], [3, 2, 1], true)).toBe(0);
    expect(rowsWrittenPerMessage([1, 2, 3], [1, 2, 3], false)).toBe(0);
    // Two leave; the joiner needs no row where history is shared, a `read` row where it is protected.
    expect(rowsWrittenPerMessage([1, 2, 3], [3, 4], true)).toBe(2);
    expect(rowsWrittenPerMessage([1, 2, 3], [3, 4], false)).toBe(3);
  });
});
