/**
 * Zulip's `check_string_is_printable` (zerver/lib/string_validation.py):
 * stream names and topics may not contain control characters (`Cc`),
 * surrogates (`Cs`) or unassigned code points (`Cn`, which includes the
 * Unicode non-characters such as U+FFFE).
 */

const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;

/**
 * Position (1-based, in code points as Python counts them) of the first
 * unprintable character, or undefined when every character is printable.
 */
export function firstUnprintablePosition(value: string): number | undefined {
  let position = 0;
  for (const ch of value) {
    position++;
    if (UNPRINTABLE.test(ch)) return position;
  }
  return undefined;
}
