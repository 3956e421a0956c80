import { JsonableError } from "../errors.js";

/** One `[operator, operand]` term of an event queue's `narrow`. */
export type NarrowTerm = [string, string];

/** Operators an event queue's narrow may use (Zulip's `check_narrow_for_events`). */
const SUPPORTED_OPERATORS = new Set(["channel", "stream", "topic", "exact-topic", "sender", "is"]);
const UNSUPPORTED_IS_OPERANDS = new Set(["followed"]);

/**
 * Normalizes and checks the `narrow` of `POST /register`: accepts the
 * documented `[[operator, operand], ...]` form and the object form
 * `{operator, operand}` some clients send.
 * @throws JsonableError 400 `Invalid narrow[i]` for a malformed term,
 *   `Operator <op> not supported.` / `Operand <x> not supported.` as Zulip
 */
export function checkEventNarrow(raw: unknown[]): NarrowTerm[] {
  return raw.map((term, i) => {
    let operator: unknown;
    let operand: unknown;
    if (Array.isArray(term) && term.length === 2) [operator, operand] = term;
    else if (term && typeof term === "object" && !Array.isArray(term)) {
      ({ operator, operand } = term as { operator?: unknown; operand?: unknown });
      if ((term as { negated?: unknown }).negated === true) throw new JsonableError(`Invalid narrow[${i}]`);
    }
    if (typeof operator !== "string" || typeof operand !== "string") throw new JsonableError(`Invalid narrow[${i}]`);
    if (!SUPPORTED_OPERATORS.has(operator)) throw new JsonableError(`Operator ${operator} not supported.`);
    if (operator === "is" && UNSUPPORTED_IS_OPERANDS.has(operand)) {
      throw new JsonableError(`Operand ${operand} not supported.`);
    }
    return [operator, operand] as NarrowTerm;
  });
}

/** The fields of a message wire object the narrow predicate reads. */
interface NarrowableMessage {
  type?: unknown;
  display_recipient?: unknown;
  subject?: unknown;
  sender_email?: unknown;
}

/**
 * Whether a message (wire shape, as in a `message` event) with the
 * recipient's `flags` matches every term of an event queue's narrow
 * (Zulip's `build_narrow_predicate`; terms are never negated). An empty
 * narrow matches everything.
 */
export function matchesNarrow(narrow: NarrowTerm[], message: NarrowableMessage, flags: string[]): boolean {
  const isStream = message.type === "stream";
  const topic = typeof message.subject === "string" ? message.subject : "";
  for (const [operator, operand] of narrow) {
    switch (operator) {
      case "channel":
      case "stream":
        if (!isStream || typeof message.display_recipient !== "string") return false;
        if (message.display_recipient.toLowerCase() !== operand.toLowerCase()) return false;
        break;
      case "topic": {
        if (!isStream) return false;
        // Zulip also matches one whole word of the topic.
        const lower = topic.toLowerCase();
        const want = operand.toLowerCase();
        if (want !== lower && !lower.split(/\s+/).includes(want)) return false;
        break;
      }
      case "exact-topic":
        if (!isStream || topic !== operand) return false;
        break;
      case "sender":
        if (String(message.sender_email ?? "").toLowerCase() !== operand.toLowerCase()) return false;
        break;
      case "is":
        if (operand === "dm" || operand === "private") {
          if (message.type !== "private") return false;
        } else if (operand === "starred") {
          if (!flags.includes("starred")) return false;
        } else if (operand === "unread") {
          if (flags.includes("read")) return false;
        } else if (operand === "alerted" || operand === "mentioned") {
          if (!flags.includes("mentioned")) return false;
        } else if (operand === "resolved") {
          if (!isStream || !topic.startsWith("✔ ")) return false;
        }
        break;
      default:
        return false;
    }
  }
  return true;
}
