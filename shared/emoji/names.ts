/**
 * Unicode emoji names and codes, the way Zulip names them (`emoji_name`,
 * `emoji_code` with `reaction_type: "unicode_emoji"`).
 *
 * Data: `unicode-data.generated.ts` (iamcal's emoji-datasource v16 plus our
 * Zulip name table, see `build-data.ts`; about 39 KiB). It is parsed into
 * maps on first use. Outside the Markdown renderer (itself loaded on
 * demand), load this module with `loadEmojiNames` (`load.ts`), so that a
 * bundle loads the table only for a request that looks an emoji up; the
 * code helpers that need no table are in `codes.ts`.
 *
 * Codes are Zulip's `emoji_code`: lowercase hex code points joined with `-`,
 * without the `fe0f` variation selector (e.g. `1f642`, `2764`,
 * `1f937-200d-2640`).
 *
 * @see https://zulip.com/api/add-reaction (emoji_name / emoji_code)
 */
import { normalizeEmojiCode } from "./codes.js";
import { UNICODE_EMOJI_TABLE } from "./unicode-data.generated.js";

interface EmojiMaps {
  codeByName: Map<string, string>;
  canonicalByCode: Map<string, string>;
}

let maps: EmojiMaps | undefined;

function load(): EmojiMaps {
  if (maps) return maps;
  const codeByName = new Map<string, string>();
  const canonicalByCode = new Map<string, string>();
  for (const line of UNICODE_EMOJI_TABLE.split("\n")) {
    const [code, ...names] = line.split(" ");
    canonicalByCode.set(code, names[0]);
    for (const name of names) codeByName.set(name, code);
  }
  maps = { codeByName, canonicalByCode };
  return maps;
}

/**
 * Every Unicode emoji code with its names, the canonical name first: the
 * `code_to_names` object of Zulip's emoji data file (`server_emoji_data_url`
 * of `POST /register`), e.g. `{"1f642": ["smile"], "1f44d": ["+1", "thumbs_up"]}`.
 */
export function emojiCodeToNames(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of UNICODE_EMOJI_TABLE.split("\n")) {
    const [code, ...names] = line.split(" ");
    out[code!] = names;
  }
  return out;
}

/**
 * Zulip's `emoji_code` for a Unicode emoji name (canonical or alias), e.g.
 * `smile` → `1f642`, `thumbs_up` → `1f44d`. Names are case-sensitive (Zulip's
 * are all lowercase). `undefined` when the name is not a Unicode emoji (realm
 * emoji are per organization and not known here).
 */
export function emojiCodeForName(name: string): string | undefined {
  return load().codeByName.get(name);
}

/**
 * The canonical Zulip name of a Unicode emoji code, e.g. `1f642` → `smile`.
 * Accepts codes with or without `fe0f` and in any case. `undefined` when unknown.
 */
export function emojiNameForCode(code: string): string | undefined {
  return load().canonicalByCode.get(normalizeEmojiCode(code));
}

/** Whether `name` is a Unicode emoji name (canonical or alias) Zulip accepts. */
export function isValidEmojiName(name: string): boolean {
  return load().codeByName.has(name);
}
