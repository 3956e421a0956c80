import { describe, expect, it } from "vitest";
import type { MeterDelta, Totals } from "./meter.js";
import { activityFor, computeCostReport, costInputs, renderCost } from "./part-cost.js";
import type { EventsResult } from "./part-events.js";
import type { LimitsResult } from "./part-limits.js";
import type { MessagesResult } from "./part-messages.js";
import { summarize } from "./stats.js";

const totals = (t: Partial<Totals>): Totals => ({ calls: 0, rcu: 0, wcu: 0, byCommand: {}, unitsByCommand: {}, errors: 0, writeBytes: 0, ...t });
const delta = (request: Partial<Totals>, deferred: Partial<Totals> = {}, all?: Partial<Totals>): MeterDelta => ({
  elapsedMs: 1000,
  request: totals(request),
  deferred: totals(deferred),
  all: totals(all ?? request),
});

describe("costInputs", () => {
  it("falls back to the last full run's figures, marked unmeasured, when no part ran", () => {
    const i = costInputs({});
    expect(i.holdMs).toBe(20_000);
    expect(i.recheckMs).toBe(1000);
    expect(i.idlePoll).toEqual({ measured: false, value: { otherReadUnits: 3, writeUnits: 2, readUnitsPerQuery: 0.5 } });
    expect(i.rateLimitWcu).toEqual({ measured: false, value: 1 });
    // 128 MB events function, 180 polls an hour, 42 half-unit Queries and 3 RRU each, 2 + 1 WRU each.
    expect(computeCostReport(i).clientHour.total).toBeCloseTo(0.00709353, 10);
    expect(computeCostReport(i).clientHourMessagesOnly.total).toBeCloseTo(0.00685728, 10);
  });

  it("takes per-operation units from the parts' meters", () => {
    const events = {
      idle: {
        seconds: 60,
        polls: 10,
        heartbeats: 10,
        // 10 polls: 40 Queries of 0 units (DynamoDB Local), 35 RCU and 20 WCU in the other calls.
        meter: delta({ calls: 90, rcu: 35, wcu: 20, byCommand: { QueryCommand: 40 }, unitsByCommand: { QueryCommand: 0 } }),
      },
      register: { latency: summarize([1, 2]), errors: 0, errorSamples: [], meter: delta({ rcu: 16, wcu: 4 }) },
    } as unknown as EventsResult;
    const send = (audience: number, sends: number, request: Partial<Totals>, deferred: Partial<Totals>) => ({
      audience,
      sends,
      errors: 0,
      errorSamples: [],
      latency: summarize([1]),
      perSecond: 1,
      meter: delta(request, deferred),
      drainMs: 0,
    });
    const messages = {
      raw: [],
      history: undefined,
      setupMs: {},
      sends: [send(10, 4, { rcu: 24, wcu: 192 }, {}), send(100, 2, { rcu: 12, wcu: 800 }, { rcu: 2, wcu: 10 })],
      reads: [
        { narrow: "a", requests: 2, meter: delta({ rcu: 100 }) },
        { narrow: "b", requests: 4, meter: delta({ rcu: 40 }) },
        { narrow: "c", requests: 0, meter: delta({}), failed: "driver op get did not finish within 60 s" },
      ],
    } as unknown as MessagesResult;
    const limits = { off: { wcu: 0 }, on: { wcu: 1 } } as unknown as LimitsResult;
    const i = costInputs({ events, messages, limits });
    expect(i.idlePoll).toEqual({ measured: true, value: { otherReadUnits: 3.5, writeUnits: 2, readUnitsPerQuery: 0.5 } });
    expect(i.register).toEqual({ measured: true, value: { readUnits: 8, writeUnits: 2 } });
    expect(i.send10).toEqual({ measured: true, value: { readUnits: 6, writeUnits: 48 } });
    expect(i.send100).toEqual({ measured: true, value: { readUnits: 7, writeUnits: 405 } });
    // The failed narrow is left out: (50 + 10) / 2.
    expect(i.read).toEqual({ measured: true, value: { readUnits: 30, writeUnits: 0 } });
    expect(i.rateLimitWcu).toEqual({ measured: true, value: 1 });
    expect(i.wokenPoll.measured).toBe(false);
  });
});

describe("the report", () => {
  it("holds the issue's targets and states the gap with its dominant term", () => {
    const r = computeCostReport(costInputs({}));
    const text = renderCost(r);
    expect(text).toContain("≤ 0.0065");
    expect(text).toContain("≤ 1.25");
    expect(text).toMatch(/connected client-hour \(takes stream typing\)\s+0\.00709\s+≤ 0\.0065\s+missed by \$0\.00059 \(9%\); Lambda duration is 85% of the total/);
    expect(text).toContain("NOT measured in this run");
    expect(r.idle.compute.total).toBeLessThan(0.01);
    expect(r.userMonth.map((u) => u.users)).toEqual([10, 50, 500]);
    // The 25 s hold only saves per-request terms.
    expect(r.clientHourHold25.total).toBeLessThan(r.clientHour.total);
    expect(r.clientHourHold25.terms.find((t) => t.term === "Lambda duration")!.quantity).toBeCloseTo(450, 9);
  });

  it("sizes each organization's streams by its users", () => {
    expect(activityFor(10).streamMembers).toBe(10);
    expect(activityFor(50).streamMembers).toBe(20);
    expect(activityFor(500).streamMembers).toBe(50);
  });
});
