import { describe, expect, it } from "vitest";
import { emojiFromClass } from "./emoji.js";

describe("emojiFromClass", () => {
  it("turns a single code point into its character", () => {
    expect(emojiFromClass("emoji emoji-1f642")).toBe("🙂");
    expect(emojiFromClass("emoji-1f44d emoji")).toBe("👍");
  });

  it("puts the emoji variation selector back after text-default code points", () => {
    expect(emojiFromClass("emoji emoji-2b06")).toBe("\u2B06\uFE0F");
    expect(emojiFromClass("emoji emoji-0023-20e3")).toBe("#\uFE0F\u20E3");
    expect(emojiFromClass("emoji emoji-1f937-200d-2640")).toBe("\u{1F937}\u200D\u2640\uFE0F");
  });

  it("does not double a selector already present", () => {
    expect(emojiFromClass("emoji emoji-2764-fe0f-200d-1f525")).toBe("\u2764\uFE0F\u200D\u{1F525}");
  });

  it("returns null when no class names code points", () => {
    expect(emojiFromClass("emoji")).toBeNull();
    expect(emojiFromClass("emoji emoji-zz")).toBeNull();
    expect(emojiFromClass("emoji emoji-110000")).toBeNull();
    expect(emojiFromClass("emoji emoji-d800")).toBeNull();
    expect(emojiFromClass("")).toBeNull();
  });
});
