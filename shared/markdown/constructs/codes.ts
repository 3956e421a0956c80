/**
 * Character-code helpers for our micromark tokenizers. micromark feeds
 * tokenizers UTF-16 code units; negative codes are virtual characters
 * (-5 CR, -4 LF, -3 CRLF, -2 tab, -1 virtual space) and `null` is the end.
 */
import type { Code } from "micromark-util-types";

export const AT = 64; // @
export const UNDERSCORE = 95; // _
export const ASTERISK = 42; // *
export const NUMBER_SIGN = 35; // #
export const COLON = 58; // :
export const LESS_THAN = 60; // <
export const GREATER_THAN = 62; // >
export const DOLLAR = 36; // $
export const BACKSLASH = 92; // \
export const GRAVE = 96; // `
export const TILDE = 126; // ~
export const SPACE = 32;

/** A line ending (CR, LF, CRLF). */
export function isLineEnding(code: Code): boolean {
  return code !== null && code < -2;
}

/** Space, tab or virtual space (not a line ending). */
export function isSpaceOrTab(code: Code): boolean {
  return code === SPACE || code === -2 || code === -1;
}

/** An ASCII letter, digit or underscore (Python's ASCII `\w`). */
export function isAsciiWord(code: Code): boolean {
  return (
    code !== null &&
    ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === UNDERSCORE)
  );
}

const BEFORE_MENTION_PUNCTUATION = new Set([..."'\"({[/<"].map((ch) => ch.charCodeAt(0)));

/**
 * Zulip's `BEFORE_MENTION_ALLOWED_REGEX`: mentions and channel links start at
 * the beginning of the text, after whitespace, or after one of `'"({[/<`
 * (so `foo@**bar**` in an email-ish word is not a mention).
 */
export function allowedBeforeMention(previous: Code): boolean {
  if (previous === null || previous < 0 || previous === SPACE) return true;
  if (BEFORE_MENTION_PUNCTUATION.has(previous)) return true;
  return /\s/u.test(String.fromCharCode(previous));
}
