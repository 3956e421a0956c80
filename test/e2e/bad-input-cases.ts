import type { Route } from "../../shared/routes.js";
import { contractAvailable, loadContract } from "../support/openapi.js";

/**
 * The bad inputs of the bad-input pass (see `bad-input-helpers.ts`): for a
 * route, the request with no parameters, then for each parameter (taken
 * from Zulip's OpenAPI description where the route is documented, else a
 * small generic set) wrong-typed, malformed, oversized and out-of-range
 * values, and bad path parameters; at most {@link MAX_CASES_PER_ROUTE}.
 */

/** At most this many requests per route and caller. */
export const MAX_CASES_PER_ROUTE = 20;

/** Oversized strings: 100 KB in a form body; in a query string Node's 16 KB header limit answers first. */
const BIG_BODY = "x".repeat(100_000);
const BIG_QUERY = "x".repeat(6_000);
const BIG_LIST = Array.from({ length: 10_000 }, (_, i) => i + 1);
const BIG_QUERY_LIST = Array.from({ length: 1_000 }, (_, i) => i + 1);

const BAD_PATH_VALUES = ["abc", "0", "99999999999999", "9223372036854775808"];

interface Param {
  name: string;
  type: string;
  in: "path" | "query" | "body";
  required: boolean;
  example?: unknown;
}
export interface Case {
  label: string;
  path: string;
  params: Record<string, unknown>;
}

function deref(doc: any, node: any): any {
  let n = node;
  for (let i = 0; n && typeof n === "object" && typeof n.$ref === "string" && i < 20; i++) {
    n = n.$ref
      .slice(2)
      .split("/")
      .reduce((acc: any, k: string) => acc?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  }
  return n;
}

function schemaType(doc: any, schema: any): string {
  const s = deref(doc, schema);
  if (!s || typeof s !== "object") return "string";
  if (typeof s.type === "string") return s.type;
  for (const key of ["oneOf", "anyOf", "allOf"]) {
    if (Array.isArray(s[key]) && s[key].length > 0) return schemaType(doc, s[key][0]);
  }
  return "string";
}

/** The parameters OpenAPI documents for `method path`, or undefined when the route is not there. */
function documentedParams(method: string, path: string): Param[] | undefined {
  if (!contractAvailable) return undefined;
  const doc = loadContract() as any;
  const op = doc.paths?.[path]?.[method.toLowerCase()];
  if (!op) return undefined;
  const out: Param[] = [];
  for (const raw of [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])]) {
    const p = deref(doc, raw);
    if (!p?.name || (p.in !== "path" && p.in !== "query")) continue;
    const schema = p.schema ?? p.content?.["application/json"]?.schema;
    out.push({ name: p.name, type: schemaType(doc, schema), in: p.in, required: !!p.required, example: p.example });
  }
  const body = deref(doc, op.requestBody)?.content?.["application/x-www-form-urlencoded"]?.schema;
  const bodySchema = deref(doc, body);
  const required: string[] = bodySchema?.required ?? [];
  for (const [name, prop] of Object.entries<any>(bodySchema?.properties ?? {})) {
    const p = deref(doc, prop);
    out.push({ name, type: schemaType(doc, p), in: "body", required: required.includes(name), example: p?.example });
  }
  return out;
}

/** Parameters for routes OpenAPI lacks: the path's own, plus a generic set. */
function genericParams(path: string): Param[] {
  const fromPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], type: "integer", in: "path" as const, required: true }));
  return [
    ...fromPath,
    { name: "content", type: "string", in: "body", required: false },
    { name: "user_ids", type: "array", in: "body", required: false },
    { name: "stream_id", type: "integer", in: "body", required: false },
    { name: "api_key", type: "string", in: "body", required: false },
  ];
}

function badValues(type: string, query: boolean): [string, unknown][] {
  const big = query ? BIG_QUERY : BIG_BODY;
  const bigList = query ? BIG_QUERY_LIST : BIG_LIST;
  switch (type) {
    case "integer":
    case "number":
      return [["string for int", "abc"], ["2^60", 2 ** 60], ["negative", -1], ["object", { a: 1 }], ["boolean", true]];
    case "boolean":
      return [["string for bool", "maybe"], ["number for bool", 7], ["list for bool", [1]]];
    case "array":
      return [["object for list", { a: 1 }], ["malformed JSON", "[1,"], ["oversized list", bigList], ["boolean", true]];
    case "object":
      return [["list for object", [1, 2]], ["malformed JSON", "{\"a\":"], ["oversized", big], ["boolean", true]];
    default:
      return [["oversized string", big], ["object for string", { a: 1 }], ["malformed JSON", "[1,"], ["boolean", true]];
  }
}

/**
 * Builds the bounded cases of one route: nothing, bad path values, then each
 * parameter's bad values in turn. The number of cases does not depend on
 * `pathValues`.
 * @param pathValues values of the path's parameters (`"1"` for any missing)
 */
export function casesFor(route: Route, pathValues: Record<string, string>): Case[] {
  const params = documentedParams(route.method, route.path) ?? genericParams(route.path);
  const fill = (overrides: Record<string, string> = {}) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(overrides[name] ?? pathValues[name] ?? "1"));
  const base: Record<string, unknown> = {};
  for (const p of params) if (p.in !== "path" && p.required && p.example !== undefined) base[p.name] = p.example;
  const query = route.method === "GET" || route.method === "HEAD";
  const cases: Case[] = [{ label: "missing everything", path: fill(), params: {} }];
  const perParam: Case[][] = [];
  for (const p of params) {
    if (p.in === "path") {
      perParam.push(BAD_PATH_VALUES.map((v) => ({ label: `path ${p.name}=${v}`, path: fill({ [p.name]: v }), params: base })));
    } else {
      perParam.push(
        badValues(p.type, query).map(([label, v]) => ({ label: `${p.name}: ${label}`, path: fill(), params: { ...base, [p.name]: v } })),
      );
    }
  }
  // Round-robin over parameters so a route with many parameters still tries each one.
  for (let round = 0; cases.length < MAX_CASES_PER_ROUTE; round++) {
    const batch = perParam.map((list) => list[round]).filter((c): c is Case => c !== undefined);
    if (batch.length === 0) break;
    cases.push(...batch.slice(0, MAX_CASES_PER_ROUTE - cases.length));
  }
  return cases;
}
