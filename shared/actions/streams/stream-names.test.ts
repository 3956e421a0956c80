import { describe, expect, it } from "vitest";
import { archivedStreamName } from "./archive-stream.js";
import { firstUnprintablePosition } from "../../domain/printable.js";
import { checkStreamName } from "./stream-names.js";

describe("checkStreamName", () => {
  it("accepts ordinary names, emoji included, up to 60 code points", () => {
    expect(() => checkStreamName("general")).not.toThrow();
    expect(() => checkStreamName("🐙".repeat(60))).not.toThrow();
  });

  it("refuses blank, long and unprintable names with Zulip's messages", () => {
    expect(() => checkStreamName("  ")).toThrow("Channel name can't be empty.");
    expect(() => checkStreamName("a".repeat(61))).toThrow("Channel name too long (limit: 60 characters).");
    expect(() => checkStreamName("ok\u0000")).toThrow("Invalid character in channel name, at position 3.");
  });
});

describe("firstUnprintablePosition", () => {
  it("finds control characters and non-characters, counting code points from 1", () => {
    expect(firstUnprintablePosition("abc")).toBeUndefined();
    expect(firstUnprintablePosition("🐙\u009f")).toBe(2);
    expect(firstUnprintablePosition("x\ufffe")).toBe(2);
    expect(firstUnprintablePosition("x\ufdd0")).toBe(2);
  });
});

describe("archivedStreamName", () => {
  it("prefixes a hash of the ID and cuts to 60 code points", () => {
    const name = archivedStreamName(42, "general");
    expect(name).toMatch(/^[0-9a-f]{7}!DEACTIVATED:general$/);
    expect(archivedStreamName(42, "general")).toBe(name);
    expect([...archivedStreamName(1, "x".repeat(60))]).toHaveLength(60);
  });
});
