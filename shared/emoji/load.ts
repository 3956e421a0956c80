/**
 * The Unicode emoji names (`names.ts` and its table, about 39 KiB of a
 * bundle), loaded on first use: reached only through this dynamic
 * `import()` (and the Markdown renderer, itself loaded on demand), so the
 * bundler puts them in a chunk of their own (infra/bundling.ts) that a
 * function loads only for a request that looks an emoji name up (a
 * reaction or status by name, a custom emoji's name, the emoji data file),
 * not on every cold start.
 */

/** The emoji names module: `emojiCodeForName`, `emojiNameForCode`, `isValidEmojiName`, `emojiCodeToNames`. */
export type EmojiNames = typeof import("./names.js");

/**
 * The emoji names module, imported once per process (later calls resolve at once).
 * @returns the module of `shared/emoji/names.ts`
 * @throws Error when the module cannot be loaded (a bundle built without its chunk)
 */
export function loadEmojiNames(): Promise<EmojiNames> {
  return import("./names.js");
}
