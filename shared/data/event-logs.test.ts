import { describe, expect, it } from "vitest";
import { eventKeyTime, newEventKey } from "./event-logs.js";

describe("newEventKey", () => {
  it("orders the keys made within one millisecond by creation, and keeps them unique", () => {
    const keys = Array.from({ length: 2000 }, () => newEventKey(1_700_000_000_000));
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(eventKeyTime(keys[1999]!)).toBe(1_700_000_000_000);
  });

  it("orders keys by their millisecond first", () => {
    const later = newEventKey(1_700_000_000_001);
    const earlier = newEventKey(1_700_000_000_000);
    expect(earlier < later).toBe(true);
  });
});
