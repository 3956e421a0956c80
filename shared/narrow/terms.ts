import { JsonableError } from "../errors.js";

/**
 * Narrow terms (Zulip "Construct a narrow", feature level 283): parsing the
 * `narrow` parameter into canonical terms. Pure; resolving operands against
 * the database is `shared/queries/narrow/resolve-narrow.ts`, matching stored
 * messages is `filter.ts`, matching event-queue deliveries is
 * `shared/events/narrow.ts`.
 */

/**
 * Canonical operator names; aliases are mapped onto these by
 * {@link parseNarrow}. `exact-topic` exists only in event-queue narrows
 * (`POST /register`'s `narrow`, see `shared/events/narrow.ts`).
 */
export type Operator =
  | "stream"
  | "streams"
  | "topic"
  | "exact-topic"
  | "sender"
  | "dm"
  | "dm-including"
  | "group-pm-with"
  | "is"
  | "has"
  | "in"
  | "near"
  | "id"
  | "search"
  | "with";

/** An operand: a string, an ID (`stream`, `sender`, `id`, …) or a list of user IDs (`dm`). */
export type Operand = string | number | number[];

/**
 * One term of a narrow (https://zulip.com/api/construct-narrow): what
 * `GET /messages` parses its `narrow` into, and what an event queue's
 * stored narrow is read back as.
 */
export interface NarrowTerm {
  operator: Operator;
  operand: Operand;
  negated: boolean;
}

/** Zulip's `Invalid narrow operator: <desc>` (code `BAD_NARROW`, field `desc`). */
export class BadNarrowOperatorError extends JsonableError {
  constructor(desc: string) {
    super(`Invalid narrow operator: ${desc}`, { code: "BAD_NARROW", data: { desc } });
  }
}

/** Operator names as clients send them → canonical name (`channel` since FL 250, `dm` since FL 177, underscore legacy forms). */
const ALIASES: Record<string, Operator> = {
  stream: "stream",
  channel: "stream",
  streams: "streams",
  channels: "streams",
  topic: "topic",
  sender: "sender",
  dm: "dm",
  "pm-with": "dm",
  pm_with: "dm",
  "dm-including": "dm-including",
  "group-pm-with": "group-pm-with",
  group_pm_with: "group-pm-with",
  is: "is",
  has: "has",
  in: "in",
  near: "near",
  id: "id",
  search: "search",
  with: "with",
};

/** Operators whose operand may be an integer ID (else a string). */
const ID_OPERATORS = new Set(["stream", "channel", "id", "sender", "group-pm-with", "dm-including", "with"]);
/** Operators whose operand may be a list of user IDs (else a comma-separated email string). */
const ID_LIST_OPERATORS = new Set(["dm", "pm-with"]);

/** `is:` operands; `private` is the legacy name of `dm`. */
export const IS_OPERANDS = new Set(["dm", "private", "starred", "unread", "mentioned", "alerted", "resolved", "followed"]);
/** `has:` operands. */
export const HAS_OPERANDS = new Set(["link", "image", "attachment", "reaction"]);

/**
 * Most terms a narrow may have. Zulip sets no limit, but every term can cost
 * DynamoDB round trips to resolve (a stream or user lookup), so a request
 * must not be able to ask for thousands; real clients send fewer than ten.
 */
export const MAX_NARROW_TERMS = 20;

/**
 * Most users a `dm` operand may name. A conversation is keyed by its sorted
 * user IDs, and DynamoDB's 1,024-byte sort-key limit holds about 120 IDs of
 * seven digits; beyond this no conversation can exist.
 */
export const MAX_DM_OPERAND_USERS = 100;

/** @throws JsonableError `operand is too long (limit: 100 items)` past {@link MAX_DM_OPERAND_USERS} */
function checkDmOperandSize(operand: string | number[]): void {
  const count = typeof operand === "string" ? operand.split(",").length : operand.length;
  if (count > MAX_DM_OPERAND_USERS) {
    throw new JsonableError(`operand is too long (limit: ${MAX_DM_OPERAND_USERS} items)`);
  }
}

function checkOperand(sentOperator: string, operand: unknown): Operand {
  if (ID_OPERATORS.has(sentOperator)) {
    if (typeof operand === "string" || Number.isInteger(operand)) return operand as string | number;
    throw new JsonableError("operand is not a string or an integer");
  }
  if (ID_LIST_OPERATORS.has(sentOperator)) {
    if (typeof operand === "string") {
      checkDmOperandSize(operand);
      return operand;
    }
    if (Array.isArray(operand) && operand.every((x) => Number.isInteger(x))) {
      checkDmOperandSize(operand as number[]);
      return operand as number[];
    }
    throw new JsonableError("operand is not a string or integer list");
  }
  if (typeof operand !== "string") throw new JsonableError("operand is not a string");
  if (sentOperator === "search" && operand.trim() === "") throw new JsonableError("operand cannot be blank");
  return operand;
}

function convertElement(elem: unknown, index: number): NarrowTerm {
  let operator: unknown;
  let operand: unknown;
  let negated: unknown = false;
  if (Array.isArray(elem)) {
    // The legacy form: a pair of strings.
    if (elem.length !== 2 || elem.some((x) => typeof x !== "string")) {
      throw new JsonableError(`Invalid narrow[${index}]: element is not a string pair`);
    }
    [operator, operand] = elem;
  } else if (elem !== null && typeof elem === "object") {
    const o = elem as Record<string, unknown>;
    if (o.operand === undefined || o.operand === null) throw new JsonableError(`Invalid narrow[${index}]: operand is missing`);
    if (o.operator === undefined || o.operator === null) throw new JsonableError(`Invalid narrow[${index}]: operator is missing`);
    operator = o.operator;
    operand = o.operand;
    negated = o.negated ?? false;
  } else {
    throw new JsonableError(`Invalid narrow[${index}]: dict or list required`);
  }
  if (typeof operator !== "string") throw new JsonableError("operator is not a string");
  if (typeof negated !== "boolean") throw new JsonableError("negated is not a boolean");
  const checked = checkOperand(operator, operand);
  const canonical = ALIASES[operator];
  if (!canonical) throw new BadNarrowOperatorError(`unknown operator ${operator}`);
  return { operator: canonical, operand: checked, negated };
}

function validateOperand(term: NarrowTerm): NarrowTerm {
  const { operator, operand } = term;
  switch (operator) {
    case "is": {
      const v = String(operand);
      if (!IS_OPERANDS.has(v)) throw new BadNarrowOperatorError(`unknown 'is' operand ${v}`);
      return { ...term, operand: v === "private" ? "dm" : v };
    }
    case "has":
      if (!HAS_OPERANDS.has(String(operand))) throw new BadNarrowOperatorError(`unknown 'has' operand ${String(operand)}`);
      return term;
    case "in":
      if (operand !== "home" && operand !== "all") throw new BadNarrowOperatorError(`unknown 'in' operand ${String(operand)}`);
      return term;
    case "streams":
      if (operand !== "public" && operand !== "web-public") {
        throw new BadNarrowOperatorError(`unknown channels operand ${String(operand)}`);
      }
      return term;
    case "id":
      if (!/^\d+$/.test(String(operand))) throw new BadNarrowOperatorError("Invalid message ID");
      return { ...term, operand: Number(operand) };
    case "with":
      if (!/^\d+$/.test(String(operand))) throw new BadNarrowOperatorError("Invalid 'with' operator");
      return { ...term, operand: Number(operand) };
    default:
      return term;
  }
}

/** Whether a (positive) term restricts to stream messages (Zulip's "channel narrow"). */
function isStreamTerm(t: NarrowTerm): boolean {
  return t.operator === "stream" || t.operator === "streams" || t.operator === "topic";
}

/** Whether a (positive) term restricts to private messages (Zulip's "DM narrow"). */
function isDmTerm(t: NarrowTerm): boolean {
  return t.operator === "dm" || t.operator === "dm-including" || t.operator === "group-pm-with" || (t.operator === "is" && t.operand === "dm");
}

/**
 * Parses the decoded `narrow` parameter of `GET /messages`: a list of
 * `{operator, operand, negated?}` objects, or legacy `[operator, operand]`
 * string pairs. Operator aliases become canonical names (`channel` →
 * `stream`, `pm-with` → `dm`, `is:private` → `is:dm`), `id` operands become
 * numbers.
 * @param value the JSON-decoded parameter
 * @throws JsonableError 400 for a malformed element or operand, and
 *   `narrow is too long (limit: 20 items)` past {@link MAX_NARROW_TERMS}
 * @throws BadNarrowOperatorError 400 `BAD_NARROW` for an unknown operator or
 *   operand, or a narrow that is both a stream and a DM narrow
 */
export function parseNarrow(value: unknown): NarrowTerm[] {
  if (!Array.isArray(value)) throw new JsonableError("narrow is not a list");
  if (value.length > MAX_NARROW_TERMS) throw new JsonableError(`narrow is too long (limit: ${MAX_NARROW_TERMS} items)`);
  const terms = value.map((elem, i) => validateOperand(convertElement(elem, i)));
  const positive = terms.filter((t) => !t.negated);
  if (positive.some(isStreamTerm) && positive.some(isDmTerm)) {
    throw new BadNarrowOperatorError("No message can be both a channel message and direct message");
  }
  return terms;
}
