import { describe, expect, it } from "vitest";
import { allEmoji, customEmojiEntries, emojiChar, loadEmojiCatalog, parseEmojiCatalog, searchEmoji } from "./catalog.js";
import { frequentEmoji, POPULAR_EMOJI, recordEmojiUse } from "./frequent.js";

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
    key: () => null,
    get length() {
      return items.size;
    },
  };
}

const custom = customEmojiEntries(
  new Map([
    ["7", { id: "7", name: "tada_party", source_url: "/user_avatars/2/emoji/images/7.png", still_url: null, deactivated: false, author_id: 8 }],
    ["8", { id: "8", name: "gone", source_url: "/x.png", still_url: null, deactivated: true, author_id: 8 }],
  ]),
);

describe("the emoji catalog", () => {
  it("parses categories and Zulip's names from the generated table", async () => {
    // Act
    const catalog = await loadEmojiCatalog();

    // Assess
    expect(catalog.categories[0]).toBe("Smileys & Emotion");
    expect(catalog.categories).toContain("Flags");
    expect(catalog.unicode.find((e) => e.name === "+1")).toMatchObject({ code: "1f44d", aliases: ["thumbs_up"], category: "People & Body" });
    expect(catalog.unicode.find((e) => e.name === "smile")?.code).toBe("1f642");
  });

  it("lists the active custom emoji under Custom, before the Unicode ones", () => {
    const catalog = parseEmojiCatalog("#Activities\n1f389 tada");

    const all = allEmoji(catalog, custom);

    expect(all.map((e) => e.name)).toEqual(["tada_party", "tada"]);
    expect(all[0]).toMatchObject({ code: "7", reaction_type: "realm_emoji", category: "Custom", url: "/user_avatars/2/emoji/images/7.png" });
  });
});

describe("searchEmoji", () => {
  it("puts the exact name first, then names starting with the query, aliases, words, and names containing it", async () => {
    const all = allEmoji(await loadEmojiCatalog(), custom);

    const tada = searchEmoji(all, "tada").map((e) => e.name);
    const thumbs = searchEmoji(all, "thumbs").map((e) => e.name);
    const heart = searchEmoji(all, "HEART", 3).map((e) => e.name);

    expect(tada.slice(0, 2)).toEqual(["tada", "tada_party"]);
    expect(thumbs.slice(0, 2)).toEqual(["+1", "-1"]);
    expect(heart[0]).toBe("heart");
    expect(heart).toHaveLength(3);
    expect(searchEmoji(all, "face with").length).toBeGreaterThan(0);
  });

  it("finds by a word of a name and by a part of it", () => {
    const catalog = parseEmojiCatalog("#Smileys & Emotion\n1f604 big_smile\n1f642 smile slight_smile\n1f60a blush");

    expect(searchEmoji(catalog.unicode, "smi").map((e) => e.name)).toEqual(["smile", "big_smile"]);
    expect(searchEmoji(catalog.unicode, "lus").map((e) => e.name)).toEqual(["blush"]);
    expect(searchEmoji(catalog.unicode, "zzz")).toEqual([]);
  });
});

describe("emojiChar", () => {
  it("turns a code into its characters", () => {
    expect(emojiChar("1f44d")).toBe("👍");
    expect(emojiChar("1f468-200d-1f4bb")).toBe("👨‍💻");
    expect(emojiChar("7")).toBe("\u0007");
    expect(emojiChar("zz")).toBeNull();
  });
});

describe("frequently used emoji", () => {
  it("starts with Zulip's popular emoji", () => {
    expect(frequentEmoji(memoryStorage(), 5).map((e) => e.name)).toEqual(["+1", "tada", "smile", "heart", "working_on_it", "octopus"]);
  });

  it("puts the reader's most used emoji first, then the defaults not yet listed", () => {
    // Prepare
    const storage = memoryStorage();
    const rocket = { name: "rocket", code: "1f680", reaction_type: "unicode_emoji" as const };

    // Act
    recordEmojiUse(storage, 5, rocket, 1000);
    recordEmojiUse(storage, 5, rocket, 2000);
    recordEmojiUse(storage, 5, POPULAR_EMOJI[1]!, 3000);

    // Assess
    expect(frequentEmoji(storage, 5).map((e) => e.name)).toEqual(["rocket", "tada", "+1", "smile", "heart", "working_on_it", "octopus"]);
    expect(frequentEmoji(storage, 6).map((e) => e.name)[0]).toBe("+1");
  });

  it("ignores a broken stored value", () => {
    const storage = memoryStorage();
    storage.setItem("zulip-frequent-emoji:5", "{not json");
    expect(frequentEmoji(storage, 5)).toHaveLength(POPULAR_EMOJI.length);
  });
});
