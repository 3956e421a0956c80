import { describe, expect, it } from "vitest";
import { percentile, ratePerSecond, ratio, summarize } from "./stats.js";

describe("percentile (nearest rank)", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted on purpose

  it("p50 and p99 of 1..100 are the 50th and 99th smallest", () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
  });

  it("never interpolates: p99 of ten samples is the largest", () => {
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1000];
    expect(percentile(ten, 99)).toBe(1000);
    expect(percentile(ten, 90)).toBe(9);
    expect(percentile(ten, 50)).toBe(5);
  });

  it("a single sample is every percentile", () => {
    expect(percentile([7], 1)).toBe(7);
    expect(percentile([7], 99)).toBe(7);
  });

  it("is NaN for no samples and rejects p outside (0, 100]", () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it("does not reorder the caller's array", () => {
    const xs = [3, 1, 2];
    percentile(xs, 50);
    expect(xs).toEqual([3, 1, 2]);
  });
});

describe("summarize", () => {
  it("agrees with percentile and computes mean and max", () => {
    const xs = [5, 1, 4, 2, 3];
    expect(summarize(xs)).toEqual({ count: 5, p50: 3, p90: 5, p99: 5, max: 5, mean: 3 });
  });

  it("is all NaN with a zero count when empty", () => {
    const s = summarize([]);
    expect(s.count).toBe(0);
    expect(s.p50).toBeNaN();
    expect(s.mean).toBeNaN();
  });
});

describe("rates", () => {
  it("ratePerSecond converts a millisecond window", () => {
    expect(ratePerSecond(500, 2000)).toBe(250);
    expect(ratePerSecond(1, 0)).toBeNaN();
  });

  it("ratio of nothing is NaN, not zero", () => {
    expect(ratio(3, 4)).toBe(0.75);
    expect(ratio(3, 0)).toBeNaN();
  });
});
