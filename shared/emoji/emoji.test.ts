import { describe, expect, it } from "vitest";
import { buildUnicodeEmojiTable, generatedModuleSource, readEmojiDatasource } from "./build-data.js";
import { emojiCodeOfText, normalizeEmojiCode } from "./codes.js";
import { emojiCodeForName, emojiNameForCode, isValidEmojiName } from "./names.js";
import { UNICODE_EMOJI_TABLE } from "./unicode-data.generated.js";

describe("emojiCodeForName", () => {
  it("uses Zulip's names where they differ from iamcal's", () => {
    expect(emojiCodeForName("smile")).toBe("1f642");
    expect(emojiCodeForName("big_smile")).toBe("1f604");
    expect(emojiCodeForName("cat")).toBe("1f408");
    expect(emojiCodeForName("kitten")).toBe("1f431");
    expect(emojiCodeForName("+1")).toBe("1f44d");
    expect(emojiCodeForName("thumbs_up")).toBe("1f44d");
    expect(emojiCodeForName("heart")).toBe("2764");
    expect(emojiCodeForName("octopus")).toBe("1f419");
    expect(emojiCodeForName("working_on_it")).toBe("1f6e0");
    expect(emojiCodeForName("kiwi")).toBe("1f95d");
    expect(emojiCodeForName("cooking")).toBe("1f373");
    expect(emojiCodeForName("fried_egg")).toBeUndefined();
  });

  it("offers nothing newer than Emoji 15.0", () => {
    expect(emojiCodeForName("phoenix")).toBeUndefined();
    expect(emojiNameForCode("1f426-200d-1f525")).toBeUndefined();
    expect(emojiNameForCode("1f34b-200d-1f7e9")).toBeUndefined();
    // 15.0 itself is in: 🫎 moose.
    expect(emojiNameForCode("1facE")).toBe("moose");
  });

  it("falls back to iamcal's names with dashes as underscores", () => {
    expect(emojiCodeForName("woman_shrugging")).toBe("1f937-200d-2640");
    expect(emojiCodeForName("hash")).toBe("0023-20e3");
    expect(emojiCodeForName("airplane")).toBe("2708");
  });

  it("returns undefined for unknown names, skin tones and wrong case", () => {
    expect(emojiCodeForName("not_an_emoji")).toBeUndefined();
    expect(emojiCodeForName("skin_tone_2")).toBeUndefined();
    expect(emojiCodeForName("SMILE")).toBeUndefined();
  });
});

describe("emojiNameForCode", () => {
  it("returns the canonical name", () => {
    expect(emojiNameForCode("1f642")).toBe("smile");
    expect(emojiNameForCode("1f44d")).toBe("+1");
    expect(emojiNameForCode("1f4a9")).toBe("poop");
  });

  it("accepts fe0f-qualified and uppercase codes", () => {
    expect(emojiNameForCode("2764-FE0F")).toBe("heart");
    expect(emojiNameForCode("0023-fe0f-20e3")).toBe("hash");
  });

  it("returns undefined for unknown codes", () => {
    expect(emojiNameForCode("1f44d-1f3fd")).toBeUndefined();
    expect(emojiNameForCode("zzz")).toBeUndefined();
  });
});

describe("isValidEmojiName", () => {
  it("accepts canonical names and aliases only", () => {
    expect(isValidEmojiName("smile")).toBe(true);
    expect(isValidEmojiName("slight_smile")).toBe(true);
    expect(isValidEmojiName("tada")).toBe(true);
    expect(isValidEmojiName("slightly_smiling_face")).toBe(false);
    expect(isValidEmojiName("")).toBe(false);
  });
});

describe("emoji code helpers", () => {
  it("computes a code from emoji text without variation selectors", () => {
    expect(emojiCodeOfText("🤷‍♀️")).toBe("1f937-200d-2640");
    expect(emojiCodeOfText("#️⃣")).toBe("0023-20e3");
    expect(normalizeEmojiCode("1F44D-FE0F")).toBe("1f44d");
  });
});

describe("unicode-data.generated.ts", () => {
  it("is up to date with emoji-datasource and zulip-names.ts", () => {
    const table = buildUnicodeEmojiTable(readEmojiDatasource());
    expect(UNICODE_EMOJI_TABLE).toBe(table);
    expect(generatedModuleSource(table)).toContain("UNICODE_EMOJI_TABLE");
  });

  it("names every code once and every name once", () => {
    const codes = new Set<string>();
    const names = new Set<string>();
    for (const line of UNICODE_EMOJI_TABLE.split("\n")) {
      const [code, ...lineNames] = line.split(" ");
      expect(codes.has(code)).toBe(false);
      codes.add(code);
      for (const name of lineNames) {
        expect(names.has(name), name).toBe(false);
        names.add(name);
      }
    }
    expect(codes.size).toBeGreaterThan(1800);
  });
});
