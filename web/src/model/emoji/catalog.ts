/**
 * The emoji a person can pick or type (https://zulip.com/help/emoji-and-emoticons):
 * the Unicode emoji under Zulip's names, in the picker's categories, and the
 * organization's custom emoji (https://zulip.com/help/custom-emoji).
 *
 * The Unicode list is a generated module (`unicode-catalog.generated.ts`,
 * built from the server's own table) reached only through {@link loadEmojiCatalog}'s
 * dynamic `import()`: it is a chunk of its own, loaded with the first picker
 * or `:` typeahead, not with the first screen.
 */
import type { RealmEmoji } from "../realm-emoji.js";

/** One pickable emoji, with what a reaction or `:name:` needs. */
export interface EmojiEntry {
  /** The canonical name (`tada`, `+1`, or a custom emoji's name). */
  name: string;
  /** Other names that find it (`thumbs_up` for `+1`). */
  aliases: string[];
  /** Zulip's `emoji_code`: hex code points (`1f389`), or a custom emoji's ID. */
  code: string;
  reaction_type: "unicode_emoji" | "realm_emoji";
  /** The picker's category ("Smileys & Emotion", …, "Custom"). */
  category: string;
  /** A custom emoji's image. */
  url?: string;
}

/** The Unicode emoji, in picker order, and by every name. */
export interface EmojiCatalog {
  unicode: EmojiEntry[];
  categories: string[];
}

/** The category custom emoji are listed under. */
export const CUSTOM_CATEGORY = "Custom";

/** Parses the generated catalog text (`#<category>` lines, then `<code> <name> <aliases…>` lines). */
export function parseEmojiCatalog(text: string): EmojiCatalog {
  const unicode: EmojiEntry[] = [];
  const categories: string[] = [];
  let category = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) {
      category = line.slice(1);
      categories.push(category);
      continue;
    }
    const [code, name, ...aliases] = line.split(" ");
    if (code && name) unicode.push({ name, aliases, code, reaction_type: "unicode_emoji", category });
  }
  return { unicode, categories };
}

let loading: Promise<EmojiCatalog> | undefined;

/**
 * The Unicode emoji catalog, loaded on first call (later calls share the promise).
 * @throws when the chunk cannot be fetched (offline); the next call tries again
 */
export function loadEmojiCatalog(): Promise<EmojiCatalog> {
  loading ??= import("./unicode-catalog.generated.js").then(
    (m) => parseEmojiCatalog(m.UNICODE_EMOJI_CATALOG),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** The organization's active custom emoji as catalog entries, by name. */
export function customEmojiEntries(realmEmoji: ReadonlyMap<string, RealmEmoji>): EmojiEntry[] {
  return [...realmEmoji.values()]
    .filter((e) => !e.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((e) => ({ name: e.name, aliases: [], code: e.id, reaction_type: "realm_emoji", category: CUSTOM_CATEGORY, url: e.source_url }));
}

/**
 * Every emoji a person can use: custom emoji first (a custom emoji's name
 * shadows a Unicode one, as on Zulip's server), then the Unicode ones.
 */
export function allEmoji(catalog: EmojiCatalog | null, custom: readonly EmojiEntry[]): EmojiEntry[] {
  const taken = new Set(custom.map((e) => e.name));
  return [...custom, ...(catalog?.unicode ?? []).filter((e) => !taken.has(e.name))];
}

/**
 * How well `query` (lowercased, spaces as `_`) matches an emoji: 0 the name
 * itself, 1 the name starts with it, 2 an alias starts with it, 3 a word of a
 * name (after `_`) starts with it, 4 a name contains it; -1 no match.
 */
export function emojiMatchRank(entry: EmojiEntry, query: string): number {
  if (entry.name === query) return 0;
  if (entry.name.startsWith(query)) return 1;
  if (entry.aliases.some((a) => a.startsWith(query))) return 2;
  const names = [entry.name, ...entry.aliases];
  if (names.some((n) => n.split("_").some((w) => w.startsWith(query)))) return 3;
  if (names.some((n) => n.includes(query))) return 4;
  return -1;
}

/**
 * The emoji `query` finds, best first (Zulip's picker and `:` typeahead:
 * exact name, then names starting with the query, then aliases, then words of
 * names, then names containing it; ties keep the catalog's order, custom emoji first).
 * @param query what was typed, any case; spaces count as `_`
 * @param limit most results (default: all)
 */
export function searchEmoji(emoji: readonly EmojiEntry[], query: string, limit = Infinity): EmojiEntry[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, "_");
  if (!q) return emoji.slice(0, limit);
  const ranked: { entry: EmojiEntry; rank: number; at: number }[] = [];
  emoji.forEach((entry, at) => {
    const rank = emojiMatchRank(entry, q);
    if (rank >= 0) ranked.push({ entry, rank, at });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.at - b.at);
  return ranked.slice(0, limit).map((r) => r.entry);
}

/** The character(s) of a Unicode `emoji_code` (`1f44d` → 👍); null when the code is no code point list. */
export function emojiChar(code: string): string | null {
  const points = code.split("-").map((h) => parseInt(h, 16));
  if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) return null;
  try {
    return String.fromCodePoint(...points);
  } catch {
    return null;
  }
}
