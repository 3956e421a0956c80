/** The `default_language` codes `PATCH /settings` accepts, for clients that list them (the web app's language select). */
export type { LanguageCode } from "../domain/languages.js";
