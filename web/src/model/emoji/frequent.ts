/**
 * The reader's frequently used emoji, which the picker shows first (Zulip's
 * "Frequently used" section, https://zulip.com/help/emoji-reactions): the
 * emoji of their own recent reactions, counted in this browser's
 * localStorage, after Zulip's popular defaults until they have their own.
 */

/** One remembered emoji: enough to react with it again. */
export interface FrequentEmoji {
  name: string;
  code: string;
  reaction_type: "unicode_emoji" | "realm_emoji";
}

/** Zulip's popular emoji, offered before the reader has reacted: +1, tada, smile, heart, working_on_it, octopus. */
export const POPULAR_EMOJI: readonly FrequentEmoji[] = [
  { name: "+1", code: "1f44d", reaction_type: "unicode_emoji" },
  { name: "tada", code: "1f389", reaction_type: "unicode_emoji" },
  { name: "smile", code: "1f642", reaction_type: "unicode_emoji" },
  { name: "heart", code: "2764", reaction_type: "unicode_emoji" },
  { name: "working_on_it", code: "1f6e0", reaction_type: "unicode_emoji" },
  { name: "octopus", code: "1f419", reaction_type: "unicode_emoji" },
];

/** How many emoji the section shows. */
export const FREQUENT_LIMIT = 12;

/** The localStorage key; the list is per user on a shared browser. */
export function frequentKey(userId: number): string {
  return `zulip-frequent-emoji:${userId}`;
}

interface Stored {
  emoji: FrequentEmoji;
  count: number;
  last: number;
}

function read(storage: Pick<Storage, "getItem">, key: string): Stored[] {
  try {
    const raw = JSON.parse(storage.getItem(key) ?? "[]") as unknown;
    return Array.isArray(raw) ? (raw as Stored[]).filter((s) => s && typeof s.emoji?.name === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The frequently used emoji, most used first (ties: most recent), then the
 * popular defaults not already listed, at most {@link FREQUENT_LIMIT}.
 */
export function frequentEmoji(storage: Pick<Storage, "getItem">, userId: number): FrequentEmoji[] {
  const used = read(storage, frequentKey(userId)).sort((a, b) => b.count - a.count || b.last - a.last).map((s) => s.emoji);
  const seen = new Set(used.map((e) => `${e.reaction_type}:${e.code}`));
  return [...used, ...POPULAR_EMOJI.filter((e) => !seen.has(`${e.reaction_type}:${e.code}`))].slice(0, FREQUENT_LIMIT);
}

/**
 * Counts one use of an emoji (a reaction the reader added). Keeps the 40 most
 * recently used; a full or disabled storage is ignored.
 * @param nowMs the time of the use, in milliseconds
 */
export function recordEmojiUse(storage: Pick<Storage, "getItem" | "setItem">, userId: number, emoji: FrequentEmoji, nowMs: number): void {
  const key = frequentKey(userId);
  const list = read(storage, key);
  const old = list.find((s) => s.emoji.reaction_type === emoji.reaction_type && s.emoji.code === emoji.code);
  const next = [{ emoji: { name: emoji.name, code: emoji.code, reaction_type: emoji.reaction_type }, count: (old?.count ?? 0) + 1, last: nowMs }, ...list.filter((s) => s !== old)]
    .sort((a, b) => b.last - a.last)
    .slice(0, 40);
  try {
    storage.setItem(key, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the section keeps the defaults.
  }
}
