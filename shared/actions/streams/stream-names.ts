import { MAX_STREAM_NAME_LENGTH } from "../../domain/stream-permissions.js";
import { firstUnprintablePosition } from "../../domain/printable.js";
import { JsonableError } from "../../errors.js";

/**
 * Zulip's stream-name rules (`check_stream_name`): not blank, at most
 * {@link MAX_STREAM_NAME_LENGTH} characters (Unicode code points, as
 * Python's `len`), and no unprintable character (control characters,
 * surrogates, Unicode non-characters).
 */

/**
 * Checks a stream name (already stripped of surrounding whitespace by the caller).
 * @throws JsonableError 400 `Channel name can't be empty.`,
 *   `Channel name too long (limit: 60 characters).` or
 *   `Invalid character in channel name, at position <n>.`
 */
export function checkStreamName(name: string): void {
  if (name.trim() === "") throw new JsonableError("Channel name can't be empty.");
  if ([...name].length > MAX_STREAM_NAME_LENGTH) {
    throw new JsonableError(`Channel name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  }
  const position = firstUnprintablePosition(name);
  if (position !== undefined) throw new JsonableError(`Invalid character in channel name, at position ${position}.`);
}

/**
 * Strips a name the way Zulip's views do before using it (Python's
 * `str.strip()`: Unicode whitespace at both ends).
 */
export function stripStreamName(name: string): string {
  return name.trim();
}
