import { describe, expect, it } from "vitest";
import { compareNames, sortedIds } from "./sorting.js";

describe("sortedIds", () => {
  it("lists distinct IDs in numeric order", () => {
    expect(sortedIds(new Set([10, 9, 100]))).toEqual([9, 10, 100]);
    expect(sortedIds([3, 1, 3, 2])).toEqual([1, 2, 3]);
  });
});

describe("compareNames", () => {
  it("orders by code unit as Python's sorted does: capitals before small letters, no locale", () => {
    expect(["beta", "Zeta", "alpha", "Éclair"].sort(compareNames)).toEqual(["Zeta", "alpha", "beta", "Éclair"]);
    expect(compareNames("same", "same")).toBe(0);
  });
});
