import { JsonableError } from "../../errors.js";

/** Longest full name, in characters (Zulip's `UserProfile.MAX_NAME_LENGTH`). */
export const MAX_NAME_LENGTH = 100;

/** Characters Zulip refuses in names: they would break mention syntax or Markdown (`NAME_INVALID_CHARS`). */
export const NAME_INVALID_CHARS = ["*", "`", "\\", ">", '"', "@"] as const;

/** Shortest password accepted (Zulip's default `PASSWORD_MIN_LENGTH`). */
export const PASSWORD_MIN_LENGTH = 6;

/**
 * Checks and normalizes a full name the way Zulip's `check_full_name` does.
 * @param raw the name as sent
 * @returns the name without surrounding whitespace
 * @throws JsonableError 400 `Name too long!` (over {@link MAX_NAME_LENGTH} characters),
 *   `Name must not be empty!`, `Invalid characters in name!` (control characters or
 *   {@link NAME_INVALID_CHARS}), `Invalid format!` (ends like `|15`, which would make
 *   `@**name|15**` mentions ambiguous)
 */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  // Zulip counts Python characters (code points), not UTF-16 units.
  if ([...name].length > MAX_NAME_LENGTH) throw new JsonableError("Name too long!");
  if (name.length === 0) throw new JsonableError("Name must not be empty!");
  if (/[\p{Cc}\p{Cs}]/u.test(name) || NAME_INVALID_CHARS.some((c) => name.includes(c))) {
    throw new JsonableError("Invalid characters in name!");
  }
  if (/\|\d+$/.test(raw)) throw new JsonableError("Invalid format!");
  return name;
}

/**
 * Zulip's password strength rule, reduced to its length part: at least
 * {@link PASSWORD_MIN_LENGTH} characters. (Zulip also asks zxcvbn for a
 * minimum number of guesses; we do not ship a password dictionary.)
 */
export function isStrongEnoughPassword(password: string): boolean {
  return [...password].length >= PASSWORD_MIN_LENGTH;
}
