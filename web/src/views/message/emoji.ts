/**
 * Zulip's server writes a Unicode emoji as `<span class="emoji emoji-1f642" …>:slight_smile:</span>`:
 * the class names the code points in hex, joined by `-`, with the variation selector
 * U+FE0F left out (Zulip's `emoji_code`). Clients that have no sprite sheet show the
 * character itself; this turns the class back into it.
 */

const EMOJI_CLASS = /^emoji-([0-9a-f]{1,6}(?:-[0-9a-f]{1,6})*)$/i;

/** Code points that never take a variation selector after them: joiner, keycap, the selectors themselves. */
const NO_SELECTOR = new Set([0x200d, 0x20e3, 0xfe0e, 0xfe0f]);

/**
 * The character(s) of an emoji class list, or null when it names none.
 *
 * A code point below U+1F000 (©, ⬆, ♀, the keycap digits…) defaults to text
 * presentation, so U+FE0F is put back after it: `emoji-2b06` → "⬆️",
 * `emoji-0023-20e3` → "#️⃣", `emoji-1f937-200d-2640` → "🤷‍♀️".
 *
 * @param className the element's whole `class` attribute (`"emoji emoji-1f642"`)
 * @returns the string to show, or null for no `emoji-<hex>` class or a code point out of Unicode's range
 * @see https://zulip.com/api/add-reaction (emoji_code: the Unicode code points in hex)
 */
export function emojiFromClass(className: string): string | null {
  for (const name of className.split(/\s+/)) {
    const match = EMOJI_CLASS.exec(name);
    if (!match) continue;
    const points = match[1]!.split("-").map((hex) => parseInt(hex, 16));
    if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return null;
    let out = "";
    points.forEach((p, i) => {
      out += String.fromCodePoint(p);
      if (p < 0x1f000 && !NO_SELECTOR.has(p) && points[i + 1] !== 0xfe0f) out += "\uFE0F";
    });
    return out;
  }
  return null;
}
