import { describe, expect, it } from "vitest";
import {
  CONTENT_TRUNCATION_MARK,
  MAX_MESSAGE_BYTES,
  normalizeContent,
  normalizeTopic,
  privateRecipients,
  readBySender,
  streamIndicator,
} from "./message-fields.js";

describe("normalizeContent", () => {
  it("strips trailing whitespace and leading blank lines, keeps inner text", () => {
    expect(normalizeContent("\n\n  hello\nworld  \n\t")).toBe("  hello\nworld");
  });

  it("refuses empty and whitespace-only content", () => {
    expect(() => normalizeContent("")).toThrow("Message must not be empty");
    expect(() => normalizeContent(" \n\t ")).toThrow("Message must not be empty");
  });

  it("refuses NUL bytes", () => {
    expect(() => normalizeContent("a\u0000b")).toThrow("Message must not contain null bytes");
  });

  it("keeps content of exactly 10000 bytes", () => {
    const content = "a".repeat(MAX_MESSAGE_BYTES);
    expect(normalizeContent(content)).toBe(content);
  });

  it("truncates over-long content to 10000 bytes ending in the truncation mark", () => {
    const out = normalizeContent("a".repeat(MAX_MESSAGE_BYTES + 1));
    expect(Buffer.byteLength(out)).toBe(MAX_MESSAGE_BYTES);
    expect(out.endsWith(CONTENT_TRUNCATION_MARK)).toBe(true);
  });

  it("counts bytes, not characters, and never cuts a character in half", () => {
    // 4000 three-byte characters: 12000 bytes but only 4000 characters.
    const out = normalizeContent("€".repeat(4000));
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(out.endsWith(CONTENT_TRUNCATION_MARK)).toBe(true);
    expect(out.slice(0, -CONTENT_TRUNCATION_MARK.length)).toMatch(/^€+$/);
  });
});

describe("normalizeTopic", () => {
  it("strips whitespace", () => {
    expect(normalizeTopic("  lunch  ")).toBe("lunch");
  });

  it("refuses a missing or blank topic with Zulip's words", () => {
    expect(() => normalizeTopic(undefined)).toThrow("Missing topic");
    expect(() => normalizeTopic("   ")).toThrow("Topic can't be empty!");
  });

  it("keeps 60 characters and truncates longer topics to 57 plus three dots", () => {
    expect(normalizeTopic("x".repeat(60))).toBe("x".repeat(60));
    expect(normalizeTopic("y".repeat(61))).toBe(`${"y".repeat(57)}...`);
  });

  it("refuses control, surrogate and unassigned characters at their 1-based position", () => {
    expect(() => normalizeTopic("Test\n\rTopic")).toThrow("Invalid character in topic, at position 5!");
    expect(() => normalizeTopic("Test\ufffeTopic")).toThrow("Invalid character in topic, at position 5!");
    expect(() => normalizeTopic("😀😀\u0000")).toThrow("Invalid character in topic, at position 3!");
    expect(() => normalizeTopic("editing\nfun")).toThrow("Invalid character in topic, at position 8!");
    expect(normalizeTopic("✔ résumé 🐙")).toBe("✔ résumé 🐙");
  });

  it("counts characters, not UTF-16 units", () => {
    const topic = "😀".repeat(60);
    expect(normalizeTopic(topic)).toBe(topic);
  });
});

describe("streamIndicator", () => {
  it("reads IDs, names and one-element lists", () => {
    expect(streamIndicator(7)).toBe(7);
    expect(streamIndicator("Denmark")).toBe("Denmark");
    expect(streamIndicator(["Denmark"])).toBe("Denmark");
  });

  it("refuses other shapes", () => {
    expect(() => streamIndicator(["a", "b"])).toThrow("Expected exactly one channel");
    expect(() => streamIndicator({ a: 1 })).toThrow("Invalid data type for channel");
    expect(() => streamIndicator(1.5)).toThrow("Invalid data type for channel");
  });
});

describe("privateRecipients", () => {
  it("reads ID lists, email lists and comma-separated emails", () => {
    expect(privateRecipients([3, 4, 3])).toEqual({ ids: [3, 4] });
    expect(privateRecipients(["a@x.org", " b@x.org "])).toEqual({ emails: ["a@x.org", "b@x.org"] });
    expect(privateRecipients("a@x.org,b@x.org")).toEqual({ emails: ["a@x.org", "b@x.org"] });
  });

  it("refuses mixed, empty and mistyped lists", () => {
    expect(() => privateRecipients([3, "a@x.org"])).toThrow("Recipient lists may contain emails or user IDs, but not both.");
    expect(() => privateRecipients([])).toThrow("Message must have recipients");
    expect(() => privateRecipients(5)).toThrow("Invalid data type for recipients");
  });
});

describe("readBySender", () => {
  it("marks own messages read for Zulip's own apps only", () => {
    expect(readBySender("website", undefined)).toBe(true);
    expect(readBySender("ZulipMobile", undefined)).toBe(true);
    expect(readBySender("ZulipElectron", undefined)).toBe(true);
    expect(readBySender("ZulipTerminal", undefined)).toBe(true);
    expect(readBySender("Zulip desktop app", undefined)).toBe(true);
    expect(readBySender("ZulipPython", undefined)).toBe(false);
    expect(readBySender("ZulipJS", undefined)).toBe(false);
    expect(readBySender("Unspecified", undefined)).toBe(false);
  });

  it("lets read_by_sender override the heuristic", () => {
    expect(readBySender("ZulipPython", true)).toBe(true);
    expect(readBySender("website", false)).toBe(false);
  });
});
