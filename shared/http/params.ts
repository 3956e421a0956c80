import { z } from "zod";
import { JsonableError, MissingArgumentError } from "../errors.js";
import { jsonDepthExceeds } from "./json-depth.js";
import type { RawParams } from "./raw-params.js";

/**
 * Typed request parameters in Zulip's style (zerver/lib/typed_endpoint.py).
 *
 * A parameter is declared with how its raw string is decoded and a zod
 * schema for the decoded value:
 * - `param.string()`: the raw string (Zulip `str`).
 * - `param.json(schema)`: JSON-decoded first (Zulip `Json[T]`): integers,
 *   booleans, lists and objects. The Python client JSON-encodes every
 *   non-string value, so `true`, `5` and `[1,2]` arrive as JSON text.
 * - `param.jsonOrString(schema)`: JSON when it parses, else the raw string
 *   (Zulip's `to` of `POST /messages`, the `anchor` of `GET /messages`).
 *
 * Errors are Zulip's: a missing required parameter is 400
 * `REQUEST_VARIABLE_MISSING` `Missing 'x' argument`; undecodable JSON is
 * `Argument "x" is not valid JSON.` (so is JSON nested deeper than
 * `MAX_JSON_DEPTH`, as Zulip's decoder refuses over-deep text); a wrong type reads like
 * `x is not an integer`; anything else `Invalid x`.
 */
export class ParamSpec<T, Required extends boolean = true> {
  constructor(
    readonly decode: "string" | "json" | "jsonOrString",
    readonly schema: z.ZodType<T>,
    readonly required: Required,
    readonly defaultValue: T | undefined = undefined,
    readonly aliases: readonly string[] = [],
  ) {}

  /** The parameter may be absent; its value is then `undefined`. */
  optional(): ParamSpec<T, false> {
    return new ParamSpec<T, false>(this.decode, this.schema, false, undefined, this.aliases);
  }

  /** The parameter may be absent; its value is then `value`. */
  default(value: T): ParamSpec<T, true> {
    return new ParamSpec<T, true>(this.decode, this.schema, true, value, this.aliases);
  }

  /** Other names the parameter is accepted under (a deprecated name such as `subject` for `topic`). */
  alias(...names: string[]): ParamSpec<T, Required> {
    return new ParamSpec<T, Required>(this.decode, this.schema, this.required, this.defaultValue, [
      ...this.aliases,
      ...names,
    ]);
  }
}

/** Builders of {@link ParamSpec}s, one per decoding (see the class). */
export const param = {
  /** A raw string parameter. */
  string: <T = string>(schema: z.ZodType<T> = z.string() as unknown as z.ZodType<T>) =>
    new ParamSpec<T>("string", schema, true),
  /** A JSON-encoded parameter validated by `schema`. */
  json: <T>(schema: z.ZodType<T>) => new ParamSpec<T>("json", schema, true),
  /** JSON if it parses, else the raw string; validated by `schema`. */
  jsonOrString: <T>(schema: z.ZodType<T>) => new ParamSpec<T>("jsonOrString", schema, true),
  /** A JSON boolean (`true`/`false`). */
  bool: () => new ParamSpec<boolean>("json", z.boolean(), true),
  /** A JSON integer. */
  int: () => new ParamSpec<number>("json", z.int(), true),
};

/**
 * A list of at most `max` items: the length is checked before any item is
 * parsed, so an oversized list costs nothing more, and refused with
 * `<name> is too long (limit: <max> items)`, the wording Zulip uses for
 * over-long strings.
 * @param name the parameter name as the client sends it
 * @param item the schema of one item
 * @param max most items allowed
 */
export function boundedList<T extends z.ZodType>(name: string, item: T, max: number) {
  return z
    .array(z.unknown())
    .refine((list) => list.length <= max, { message: `${name} is too long (limit: ${max} items)` })
    .pipe(z.array(item));
}

type AnySpec = ParamSpec<any, boolean>;
export type ParamSpecs = Record<string, AnySpec>;
export type ParsedParams<S extends ParamSpecs> = {
  [K in keyof S]: S[K] extends ParamSpec<infer T, infer R> ? (R extends true ? T : T | undefined) : never;
};

function pathName(name: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, seg) => (typeof seg === "number" ? `${acc}[${seg}]` : `${acc}["${String(seg)}"]`),
    name,
  );
}

const TYPE_NAMES: Record<string, string> = {
  number: "an integer",
  int: "an integer",
  string: "a string",
  boolean: "a boolean",
  array: "a list",
  object: "a dict",
  record: "a dict",
};

/**
 * Turns the first zod issue into Zulip's wording.
 * @param name the parameter name as the client sent it
 */
export function zodIssueToError(name: string, error: z.ZodError): JsonableError {
  const issue = error.issues[0]!;
  const where = pathName(name, issue.path);
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_NAMES[issue.expected];
      return new JsonableError(expected ? `${where} is not ${expected}` : `Invalid ${where}`);
    }
    case "too_big":
      if (issue.origin === "string") return new JsonableError(`${where} is too long (limit: ${issue.maximum} characters)`);
      return new JsonableError(`Invalid ${where}`);
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1) return new JsonableError(`${where} cannot be blank`);
      return new JsonableError(`Invalid ${where}`);
    case "custom":
      return new JsonableError(issue.message && issue.message !== "Invalid input" ? issue.message : `Invalid ${where}`);
    default:
      return new JsonableError(`Invalid ${where}`);
  }
}

const NOT_JSON = Symbol("not JSON");

/** JSON-decodes a parameter, or {@link NOT_JSON} for invalid or over-deep text (`MAX_JSON_DEPTH`). */
function decodeJson(raw: string): unknown {
  if (jsonDepthExceeds(raw)) return NOT_JSON;
  try {
    return JSON.parse(raw);
  } catch {
    return NOT_JSON;
  }
}

/** Decodes and validates one parameter's raw string; see {@link ParamSpec}. */
export function parseOne<T>(name: string, raw: string, spec: ParamSpec<T, boolean>): T {
  let value: unknown = raw;
  if (spec.decode === "json") {
    value = decodeJson(raw);
    if (value === NOT_JSON) throw new JsonableError(`Argument "${name}" is not valid JSON.`);
  } else if (spec.decode === "jsonOrString") {
    const decoded = decodeJson(raw);
    value = decoded === NOT_JSON ? raw : decoded;
  }
  const result = spec.schema.safeParse(value);
  if (!result.success) throw zodIssueToError(name, result.error);
  return result.data;
}

/**
 * Parses a request's parameters against a declaration.
 * @returns an object with one typed value per declared parameter
 * @throws MissingArgumentError for an absent required parameter without default
 * @throws JsonableError 400 for an undecodable or invalid value
 */
export function parseParams<S extends ParamSpecs>(raw: RawParams, specs: S): ParsedParams<S> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const sentAs = [name, ...spec.aliases].find((n) => raw.has(n));
    if (sentAs === undefined) {
      if (spec.defaultValue !== undefined) out[name] = spec.defaultValue;
      else if (spec.required) throw new MissingArgumentError(name);
      else out[name] = undefined;
      continue;
    }
    out[name] = parseOne(sentAs, raw.get(sentAs)!, spec);
  }
  return out as ParsedParams<S>;
}

/**
 * Parses an integer path parameter (`/messages/{message_id}`).
 * @throws JsonableError 400 `Invalid <name>` when it is not a non-negative integer
 */
export function pathInt(pathParams: Record<string, string>, name: string): number {
  const raw = pathParams[name] ?? "";
  if (!/^\d{1,15}$/.test(raw)) throw new JsonableError(`Invalid ${name}`);
  return Number.parseInt(raw, 10);
}
