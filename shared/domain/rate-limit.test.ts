import { describe, expect, it } from "vitest";
import { fixedWindow, judgeRateLimit } from "./rate-limit.js";

describe("fixedWindow", () => {
  it("starts windows at multiples of their length since the epoch", () => {
    expect(fixedWindow(1_800_000_000_000, 60)).toEqual({ start: 1_800_000_000 - (1_800_000_000 % 60), end: 1_800_000_000 - (1_800_000_000 % 60) + 60 });
    expect(fixedWindow(119_999, 60)).toEqual({ start: 60, end: 120 });
    expect(fixedWindow(120_000, 60)).toEqual({ start: 120, end: 180 });
    expect(fixedWindow(0, 1800)).toEqual({ start: 0, end: 1800 });
  });
});

describe("judgeRateLimit", () => {
  const rule = { limit: 3, windowSeconds: 60 };
  it("allows up to the limit and counts down what is left", () => {
    expect(judgeRateLimit(rule, 1, 90_000)).toEqual({ limited: false, limit: 3, remaining: 2, secondsToFreedom: 30, resetAt: 120 });
    expect(judgeRateLimit(rule, 3, 90_000)).toMatchObject({ limited: false, remaining: 0 });
  });
  it("refuses past the limit with the float seconds to the window's end", () => {
    expect(judgeRateLimit(rule, 4, 119_250)).toEqual({ limited: true, limit: 3, remaining: 0, secondsToFreedom: 0.75, resetAt: 120 });
  });
  it("gives a whole window at its first millisecond", () => {
    expect(judgeRateLimit(rule, 1, 120_000)).toMatchObject({ secondsToFreedom: 60, resetAt: 180 });
  });
});
