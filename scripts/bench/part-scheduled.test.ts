import { describe, expect, it } from "vitest";
import { parseSizes, sizesLine, type Sizes } from "./args.js";
import { dollarsPerThousand, fmtDollars, perRequest } from "./per-request.js";
import { renderScheduled, type ScheduledResult } from "./part-scheduled.js";

describe("bench: scheduled messages", () => {
  it("averages a phase over its operations and prices 1,000 of them at on-demand rates", () => {
    const work = perRequest({ calls: 30, rcu: 15, wcu: 60 }, 10, 10);
    expect(work).toEqual({ calls: 3, rcu: 1.5, wcu: 6, sqs: 1 });
    // 1,000 × (1.5 × $0.125 + 6 × $0.625) per million units + 1,000 × $0.40 per million SQS requests.
    expect(dollarsPerThousand(work)).toBeCloseTo(0.0043375, 9);
    expect(fmtDollars(0.0043375)).toBe("$0.0043");
    expect(fmtDollars(0)).toBe("$0");
    expect(perRequest({ calls: 4, rcu: 1, wcu: 0 }, 0)).toEqual({ calls: 4, rcu: 1, wcu: 0, sqs: 0 });
  });

  it("runs in --quick with small sizes, overridable by flags", () => {
    const quick = parseSizes(["--quick", "--parts", "scheduled,linkifiers,receipts"]) as Sizes;
    expect([...quick.parts]).toEqual(["scheduled", "linkifiers", "receipts"]);
    expect([quick.scheduledCreates, quick.scheduledDeliveries, quick.linkifierSends]).toEqual([10, 5, 15]);
    expect(quick.linkifierCounts).toEqual([0, 10, 100]);
    expect(sizesLine(quick)).toBe("--quick receipt-readers=1000 receipt-reads=10 scheduled-creates=10 scheduled-deliveries=5 linkifier-counts=0,10,100 linkifier-sends=15");
    const custom = parseSizes(["--parts", "linkifiers", "--linkifier-counts", "0,100", "--scheduled-creates", "3"]) as Sizes;
    expect([custom.linkifierCounts, custom.scheduledCreates]).toEqual([[0, 100], 3]);
    expect(() => parseSizes(["--linkifier-counts", "101"])).toThrow("--linkifier-counts must be integers 0..100, got 101");
    expect(() => parseSizes(["--parts", "schedule"])).toThrow("--parts: unknown part schedule");
    expect((parseSizes([]) as Sizes).parts.has("scheduled")).toBe(true);
  });

  it("prints each operation's round trips, units and dollars per 1,000", () => {
    const result: ScheduledResult = {
      subscribers: 10,
      create: {
        ops: 10,
        errors: 0,
        latency: { count: 10, p50: 41.6, p90: 60, p99: 70, max: 70, mean: 45 },
        work: { calls: 8, rcu: 4, wcu: 4, sqs: 1 },
        byCommand: { GetCommand: 40, BatchGetCommand: 20, UpdateCommand: 10, PutCommand: 10 },
      },
      recheck: { ops: 10, errors: 0, latency: { count: 10, p50: 3.2, p90: 4, p99: 5, max: 5, mean: 3 }, work: { calls: 1, rcu: 0.5, wcu: 0, sqs: 1 }, byCommand: { GetCommand: 10 } },
      delivery: { ops: 5, errors: 1, work: { calls: 12, rcu: 5, wcu: 20, sqs: 0 }, byCommand: { GetCommand: 5 }, lateSeconds: 1.26 },
    };
    const text = renderScheduled(result);
    expect(text).toContain("Scheduled messages: a stream message to 10 subscribers");
    expect(text).toMatch(/POST \/scheduled_messages\s+10\s+42\s+8(\.0)?\s+4(\.0)?\s+4(\.0)?\s+1(\.0)?\s+\$0\.0034\s+0/);
    expect(text).toMatch(/job, not yet due\s+10\s+3\.2\s+1(\.0)?\s+0\.5\s+0(\.0)?\s+1(\.0)?\s+\$0\.00046\s+0/);
    expect(text).toMatch(/job, delivery\s+5\s+-\s+12(\.0)?\s+5(\.0)?\s+20(\.0)?\s+0(\.0)?\s+\$0\.013\s+1/);
    expect(text).toContain("not yet due Get 1");
    expect(text).toContain("The last delivery ended 1.3 s after the latest delivery time");
    expect(renderScheduled({ ...result, delivery: { ...result.delivery, lateSeconds: undefined } })).toContain("Some deliveries did not happen within the bound");
  });
});
