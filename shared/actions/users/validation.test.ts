import { describe, expect, it } from "vitest";
import { checkFullName, isStrongEnoughPassword } from "./validation.js";

describe("checkFullName", () => {
  it("returns the name without surrounding whitespace", () => {
    expect(checkFullName("  Ada Lovelace \t")).toBe("Ada Lovelace");
  });

  it("accepts 100 characters, counting code points, and refuses 101", () => {
    expect(checkFullName("a".repeat(100))).toHaveLength(100);
    expect(checkFullName("😀".repeat(100))).toHaveLength(200); // 100 code points, 200 UTF-16 units
    expect(() => checkFullName("a".repeat(101))).toThrow("Name too long!");
  });

  it("refuses an empty or blank name", () => {
    expect(() => checkFullName("")).toThrow("Name must not be empty!");
    expect(() => checkFullName("   ")).toThrow("Name must not be empty!");
  });

  it.each(["*", "`", "\\", ">", '"', "@", "\u0000", "\n"])("refuses the character %j", (c) => {
    expect(() => checkFullName(`Bad${c}Name`)).toThrow("Invalid characters in name!");
  });

  it("refuses names ending like a mention suffix |<digits>", () => {
    expect(() => checkFullName("Name|12")).toThrow("Invalid format!");
    expect(checkFullName("Name|x")).toBe("Name|x");
    expect(checkFullName("Name | 12 more")).toBe("Name | 12 more");
  });

  it("throws Zulip's 400 BAD_REQUEST envelope", () => {
    try {
      checkFullName("");
      expect.unreachable();
    } catch (e) {
      expect((e as { toEnvelope(): unknown }).toEnvelope()).toEqual({
        result: "error",
        msg: "Name must not be empty!",
        code: "BAD_REQUEST",
      });
    }
  });
});

describe("isStrongEnoughPassword", () => {
  it("needs at least 6 characters", () => {
    expect(isStrongEnoughPassword("12345")).toBe(false);
    expect(isStrongEnoughPassword("123456")).toBe(true);
  });
});
