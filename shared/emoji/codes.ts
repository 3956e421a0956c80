/**
 * Emoji code helpers that need no name table (`names.ts` has the table):
 * Zulip's `emoji_code` is lowercase hex code points joined with `-`, without
 * the `fe0f` variation selector (e.g. `1f642`, `1f937-200d-2640`).
 *
 * @see https://zulip.com/api/add-reaction (emoji_code)
 */

/** Lowercases an emoji code and drops `fe0f` variation selectors (Zulip's unqualified form). */
export function normalizeEmojiCode(code: string): string {
  return code
    .toLowerCase()
    .split("-")
    .filter((part) => part !== "fe0f" && part !== "")
    .join("-");
}

/**
 * The `emoji_code` of a string of emoji characters (e.g. `"🤷‍♀️"` →
 * `1f937-200d-2640`), computed from its code points without `fe0f`. The result
 * is not checked against the table; use `emojiNameForCode` (`names.ts`) for that.
 */
export function emojiCodeOfText(text: string): string {
  const parts: string[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfe0f) continue;
    parts.push(cp.toString(16).padStart(4, "0"));
  }
  return parts.join("-");
}
