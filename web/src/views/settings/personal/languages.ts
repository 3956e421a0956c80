import type { LanguageCode } from "../../../../../shared/wire/languages.js";

/**
 * The languages `default_language` takes: typed against the server's list,
 * so a code added or dropped there fails the web app's typecheck until it
 * is here too.
 */
const CODES = {
  ar: true, be: true, bg: true, bn: true, ca: true, cs: true, cy: true, da: true, de: true, el: true, en: true, en_GB: true,
  eo: true, es: true, fa: true, fi: true, fr: true, gl: true, gu: true, hi: true, hu: true, id: true, it: true, ja: true,
  ko: true, lt: true, ml: true, mn: true, nl: true, no: true, pl: true, pt: true, pt_BR: true, pt_PT: true, ro: true,
  ru: true, si: true, sr: true, sv: true, ta: true, te: true, tl: true, tr: true, uk: true, uz: true, vi: true,
  "zh-hans": true, "zh-hant": true,
} satisfies Record<LanguageCode, true>;

/** Each language's name in itself (`Intl.DisplayNames`; the code when the browser has no name), sorted by code. */
export function languageChoices(): { value: string; label: string }[] {
  return Object.keys(CODES)
    .sort()
    .map((code) => {
      const tag = code.replace("_", "-");
      let label = code;
      try {
        label = new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? code;
      } catch {
        // An engine without the locale's data keeps the code.
      }
      return { value: code, label };
    });
}
