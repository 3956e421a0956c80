/**
 * Most levels of nested lists and objects a JSON request parameter may
 * have. The deepest parameter of Zulip's API is a narrow's list operand
 * (three levels); Zulip's decoder (orjson) refuses text nested deeper than
 * 1,024 levels as invalid JSON. Refusing at 32 keeps every recursive check
 * of a decoded value (zod, `JSON.stringify`, DynamoDB's 32-level limit on
 * nested attributes) far from the call stack's end, at the cost of one
 * linear scan of the text.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests lists and objects more than `maxDepth` levels
 * deep. Brackets inside strings do not count. The text need not be valid
 * JSON: an invalid one is refused by `JSON.parse` afterwards.
 * @param text JSON text as received
 * @param maxDepth levels allowed; `[]` and `{}` are one level
 */
export function jsonDepthExceeds(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
