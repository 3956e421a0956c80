import { describe, expect, it } from "vitest";
import { planSqsBatches, SQS_MAX_REQUEST_BYTES } from "./deferred-work.js";

describe("planSqsBatches", () => {
  it("puts at most ten small jobs in a batch", () => {
    const batches = planSqsBatches(Array.from({ length: 23 }, (_, i) => `job${i}`));
    expect(batches.map((b) => b.length)).toEqual([10, 10, 3]);
  });

  it("splits batches so their bodies stay under the SQS request limit", () => {
    const big = "x".repeat(100 * 1024);
    const batches = planSqsBatches([big, big, big, "small"]);
    expect(batches.map((b) => b.length)).toEqual([2, 2]);
    for (const b of batches) {
      expect(b.reduce((n, body) => n + Buffer.byteLength(body), 0)).toBeLessThanOrEqual(SQS_MAX_REQUEST_BYTES);
    }
  });

  it("refuses a single job over the limit instead of sending a doomed request", () => {
    expect(() => planSqsBatches(["y".repeat(SQS_MAX_REQUEST_BYTES + 1)])).toThrow(/exceeds the SQS limit/);
  });
});
