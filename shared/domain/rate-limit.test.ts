import { describe, expect, it } from "vitest";
import { judgeRateLimit, RING_SLOTS, slidingWindowPlan, SUB_WINDOWS, type RateLimitRule } from "./rate-limit.js";

/** The ring of one subject as the data layer keeps it: slot → the sub-window it counts and its hits. */
type Ring = Map<number, { index: number; count: number }>;

/** One API request at `nowMs` as the middleware and the data layer handle it: counted, judged, uncounted when refused. */
function request(ring: Ring, rule: RateLimitRule, nowMs: number): boolean {
  const plan = slidingWindowPlan(rule, nowMs);
  for (const s of plan.clearSlots) ring.delete(s);
  const slot = ring.get(plan.slot);
  if (slot && slot.index === plan.index) slot.count++;
  else ring.set(plan.slot, { index: plan.index, count: 1 });
  const verdict = judgeRateLimit(rule, new Map([...ring.values()].map((v) => [v.index, v.count])), nowMs);
  if (verdict.limited) ring.get(plan.slot)!.count--;
  return !verdict.limited;
}

const MINUTE_BOUNDARY_MS = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);

describe("slidingWindowPlan", () => {
  it("places a moment in its sub-window and clears the slots that left the span", () => {
    const plan = slidingWindowPlan({ limit: 5, windowSeconds: 60 }, 125_000);
    expect(plan.index).toBe(20);
    expect(plan.slot).toBe(20 % RING_SLOTS);
    expect(plan.clearSlots).toEqual([21, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(plan.clearSlots).not.toContain(plan.slot);
    expect(plan.expiresAt).toBe((20 + SUB_WINDOWS + 1) * 6);
  });
});

describe("judgeRateLimit", () => {
  const rule = { limit: 3, windowSeconds: 60 };

  it("counts down what is left and resets when the newest hit leaves", () => {
    expect(judgeRateLimit(rule, new Map([[15, 1]]), 90_000)).toEqual({
      limited: false,
      limit: 3,
      remaining: 2,
      secondsToFreedom: 0,
      resetAt: (15 + 11) * 6,
    });
  });

  it("refuses past the limit until enough of the oldest sub-windows have left", () => {
    // 2 hits at 10 s (sub-window 1), 2 at 62 s (sub-window 10, this request included): the next one fits once sub-window 1 leaves at 72 s.
    expect(judgeRateLimit(rule, new Map([[1, 2], [10, 2]]), 62_000)).toEqual({
      limited: true,
      limit: 3,
      remaining: 0,
      secondsToFreedom: 10,
      resetAt: (10 + 11) * 6,
    });
  });

  it("ignores counts outside the span", () => {
    expect(judgeRateLimit(rule, new Map([[0, 50], [11, 1]]), 70_000)).toMatchObject({ limited: false, remaining: 2 });
  });

  it("judges a failure limit on earlier hits alone", () => {
    expect(judgeRateLimit(rule, new Map([[15, 2]]), 90_000, "uncounted")).toMatchObject({ limited: false, remaining: 0 });
    expect(judgeRateLimit(rule, new Map([[15, 3]]), 90_000, "uncounted")).toMatchObject({ limited: true, secondsToFreedom: 66 });
  });
});

describe("the sliding window over time", () => {
  const rule = { limit: 200, windowSeconds: 60 };

  it("lets at most the limit through a burst across a minute boundary", () => {
    // Prepare: 260 requests from 2 s before a minute boundary to 2 s after it.
    const ring: Ring = new Map();
    // Act
    let allowed = 0;
    for (let i = 0; i < 260; i++) if (request(ring, rule, MINUTE_BOUNDARY_MS - 2000 + Math.floor((i * 4000) / 260))) allowed++;
    // Assess
    expect(allowed).toBe(200);
  });

  it("never lets more than the limit through any 60-second interval, and serves a steady client again", () => {
    // Prepare: a client that sends 5 requests a second for 5 minutes, starting mid-window.
    const ring: Ring = new Map();
    const times: number[] = [];
    // Act
    for (let t = MINUTE_BOUNDARY_MS - 30_000; t < MINUTE_BOUNDARY_MS + 270_000; t += 200) if (request(ring, rule, t)) times.push(t);
    // Assess: every 60-second interval holds at most 200 allowed requests, and the client is served in every minute.
    for (let i = 0; i < times.length; i++) {
      const inWindow = times.filter((t) => t >= times[i]! && t < times[i]! + 60_000).length;
      expect(inWindow).toBeLessThanOrEqual(200);
    }
    for (let m = 0; m < 4; m++) {
      expect(times.some((t) => t >= MINUTE_BOUNDARY_MS + m * 60_000 && t < MINUTE_BOUNDARY_MS + (m + 1) * 60_000)).toBe(true);
    }
  });
});
