import type { NarrowPair } from "../data/records/event-queue.js";
import { JsonableError } from "../errors.js";
import { MAX_NARROW_TERMS, type NarrowTerm, type Operator } from "../narrow/terms.js";

/**
 * Event-queue narrows (https://zulip.com/api/register-queue, `narrow`):
 * which `message` events a queue takes. Queues store their narrow as
 * `[operator, operand]` pairs ({@link NarrowPair}); delivery reads each pair
 * as a `NarrowTerm` (`shared/narrow/terms.ts`) in one place,
 * {@link termOfPair}.
 */

/**
 * Operators an event queue's narrow may use, as clients send them, and the
 * `NarrowTerm` operator each stands for (Zulip's `check_narrow_for_events`).
 */
const EVENT_OPERATORS: Readonly<Record<string, Operator>> = {
  channel: "stream",
  stream: "stream",
  topic: "topic",
  "exact-topic": "exact-topic",
  sender: "sender",
  is: "is",
};
const UNSUPPORTED_IS_OPERANDS = new Set(["followed"]);

/**
 * Longest operand of an event-queue narrow (UTF-16 units). Every operand it
 * supports (a stream name, a topic, an email, an `is:` keyword) is far
 * shorter; the bound keeps the stored queue item small.
 */
const MAX_EVENT_NARROW_OPERAND_LENGTH = 1000;

/**
 * Normalizes and checks the `narrow` of `POST /register`: accepts the
 * documented `[[operator, operand], ...]` form and the object form
 * `{operator, operand}` some clients send.
 * @returns the pairs to store on the queue, operators as sent
 * @throws JsonableError 400 `Invalid narrow[i]` for a malformed term,
 *   `Operator <op> not supported.` / `Operand <x> not supported.` as Zulip;
 *   `narrow is too long (limit: 20 items)` and `narrow[i] is too long (limit:
 *   1000 characters)`, because the narrow is stored on the queue item
 */
export function checkEventNarrow(raw: unknown[]): NarrowPair[] {
  if (raw.length > MAX_NARROW_TERMS) throw new JsonableError(`narrow is too long (limit: ${MAX_NARROW_TERMS} items)`);
  return raw.map((term, i): NarrowPair => {
    let operator: unknown;
    let operand: unknown;
    if (Array.isArray(term) && term.length === 2) [operator, operand] = term;
    else if (term && typeof term === "object" && !Array.isArray(term)) {
      ({ operator, operand } = term as { operator?: unknown; operand?: unknown });
      if ((term as { negated?: unknown }).negated === true) throw new JsonableError(`Invalid narrow[${i}]`);
    }
    if (typeof operator !== "string" || typeof operand !== "string") throw new JsonableError(`Invalid narrow[${i}]`);
    if (operand.length > MAX_EVENT_NARROW_OPERAND_LENGTH) {
      throw new JsonableError(`narrow[${i}] is too long (limit: ${MAX_EVENT_NARROW_OPERAND_LENGTH} characters)`);
    }
    if (!Object.hasOwn(EVENT_OPERATORS, operator)) throw new JsonableError(`Operator ${operator} not supported.`);
    if (operator === "is" && UNSUPPORTED_IS_OPERANDS.has(operand)) {
      throw new JsonableError(`Operand ${operand} not supported.`);
    }
    return [operator, operand];
  });
}

/**
 * A stored pair as a narrow term (never negated: event-queue narrows refuse
 * negation), or undefined for an operator event queues do not support.
 */
function termOfPair([operator, operand]: NarrowPair): NarrowTerm | undefined {
  const canonical = Object.hasOwn(EVENT_OPERATORS, operator) ? EVENT_OPERATORS[operator] : undefined;
  return canonical === undefined ? undefined : { operator: canonical, operand, negated: false };
}

/** The fields of a message wire object the narrow predicate reads. */
interface NarrowableMessage {
  type?: unknown;
  display_recipient?: unknown;
  subject?: unknown;
  sender_email?: unknown;
}

/** Whether a message event matches one term of an event queue's narrow (see {@link eventMatchesNarrow}). */
function eventMatchesTerm(term: NarrowTerm, message: NarrowableMessage, flags: string[]): boolean {
  const isStream = message.type === "stream";
  const topic = typeof message.subject === "string" ? message.subject : "";
  const operand = String(term.operand);
  switch (term.operator) {
    case "stream":
      return isStream && typeof message.display_recipient === "string" && message.display_recipient.toLowerCase() === operand.toLowerCase();
    case "topic": {
      if (!isStream) return false;
      // Zulip also matches one whole word of the topic.
      const lower = topic.toLowerCase();
      const want = operand.toLowerCase();
      return want === lower || lower.split(/\s+/).includes(want);
    }
    case "exact-topic":
      return isStream && topic === operand;
    case "sender":
      return String(message.sender_email ?? "").toLowerCase() === operand.toLowerCase();
    case "is":
      if (operand === "dm" || operand === "private") return message.type === "private";
      if (operand === "starred") return flags.includes("starred");
      if (operand === "unread") return !flags.includes("read");
      if (operand === "alerted") return flags.includes("has_alert_word");
      if (operand === "mentioned") return flags.includes("mentioned");
      if (operand === "resolved") return isStream && topic.startsWith("✔ ");
      return true;
    default:
      return false;
  }
}

/**
 * Whether a message (wire shape, as in a `message` event) with the
 * recipient's `flags` matches every term of an event queue's narrow
 * (Zulip's `build_narrow_predicate` in `zerver/lib/narrow_predicate.py`;
 * terms are never negated). An empty narrow matches everything.
 */
export function eventMatchesNarrow(narrow: readonly NarrowPair[], message: NarrowableMessage, flags: string[]): boolean {
  return narrow.every((pair) => {
    const term = termOfPair(pair);
    return term !== undefined && eventMatchesTerm(term, message, flags);
  });
}
