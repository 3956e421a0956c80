/**
 * The interface languages a user may choose (`default_language`), with the
 * names Zulip shows for them (the `name` of Zulip's language list, which is
 * what `user_settings` events carry as `language_name`). Codes follow
 * Zulip's locale directory names (`zh-hans`, `pt_BR`, …).
 */
const LANGUAGE_NAMES = {
  ar: "العربيّة",
  be: "Беларуская",
  bg: "Български",
  bn: "বাংলা",
  ca: "Català",
  cs: "Čeština",
  cy: "Cymraeg",
  da: "Dansk",
  de: "Deutsch",
  el: "Ελληνικά",
  en: "English",
  en_GB: "British English",
  eo: "Esperanto",
  es: "Español",
  fa: "فارسی",
  fi: "Suomi",
  fr: "Français",
  gl: "Galego",
  gu: "ગુજરાતી",
  hi: "हिंदी",
  hu: "Magyar",
  id: "Bahasa Indonesia",
  it: "Italiano",
  ja: "日本語",
  ko: "한국어",
  lt: "Lietuvių",
  ml: "മലയാളം",
  mn: "Монгол",
  nl: "Nederlands",
  no: "Norsk",
  pl: "Polski",
  pt: "Português",
  pt_BR: "Português Brasileiro",
  pt_PT: "Português - Portugal",
  ro: "Română",
  ru: "Русский",
  si: "සිංහල",
  sr: "Српски",
  sv: "Svenska",
  ta: "தமிழ்",
  te: "తెలుగు",
  tl: "Tagalog",
  tr: "Türkçe",
  uk: "Українська",
  uz: "O'zbek",
  vi: "Tiếng Việt",
  "zh-hans": "简体中文",
  "zh-hant": "繁體中文",
} as const;

/** A code of {@link LANGUAGES}; the web app's language choices are typed by it (shared/wire/languages.ts). */
export type LanguageCode = keyof typeof LANGUAGE_NAMES;

export const LANGUAGES: Readonly<Record<string, string>> = LANGUAGE_NAMES;

/** The display name of a language code, or undefined for an unknown code. */
export function languageName(code: string): string | undefined {
  return Object.hasOwn(LANGUAGES, code) ? LANGUAGES[code] : undefined;
}
