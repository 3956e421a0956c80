import { describe, expect, it } from "vitest";
import { isValidStreamColor, pickStreamColor, STREAM_COLOR_PALETTE } from "./stream-colors.js";

describe("pickStreamColor", () => {
  it("gives one user distinct colors for 24 consecutive streams", () => {
    const colors = new Set(Array.from({ length: 24 }, (_, i) => pickStreamColor(5, 100 + i)));
    expect(colors.size).toBe(STREAM_COLOR_PALETTE.length);
  });

  it("varies by user for the same stream", () => {
    expect(pickStreamColor(1, 10)).not.toBe(pickStreamColor(2, 10));
  });
});

describe("isValidStreamColor", () => {
  it("accepts # and 3 to 6 hex digits, like Zulip's check_color", () => {
    expect(isValidStreamColor("#f00f00")).toBe(true);
    expect(isValidStreamColor("#abc")).toBe(true);
    expect(isValidStreamColor("f00f00")).toBe(false);
    expect(isValidStreamColor("#ggg")).toBe(false);
    expect(isValidStreamColor("#1234567")).toBe(false);
  });
});
