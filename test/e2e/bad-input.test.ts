import { createHash } from "node:crypto";
import { ScanCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import { inject, describe, expect, it } from "vitest";
import { localDynamoDbClient } from "../../shared/data/table-admin.js";
import { ROUTES, type Route } from "../../shared/routes.js";
import { useTestOrg } from "../support/local-stack.js";
import { contractAvailable, loadContract } from "../support/openapi.js";
import { encodeParams, type TestUser } from "../support/api-client.js";
import { createStream } from "./streams-helpers.js";

/**
 * A bounded bad-input pass over every route of the route table: for each
 * route, the request with no parameters, then for each parameter (taken from
 * Zulip's OpenAPI description where the route is documented, else a small
 * generic set) wrong-typed, malformed, oversized and out-of-range values, and
 * bad path parameters. A refused request must answer 4xx with a Zulip error
 * envelope and write nothing; no request may answer 5xx; a 2xx answer to odd
 * input is allowed (Zulip ignores some parameters) but must be a success
 * envelope.
 *
 * Exceptions are listed here, each with its reason, counted and printed.
 * Each entry is "METHOD PATH :: case label".
 */
const KNOWN_FAILURES: ReadonlyMap<string, string> = new Map<string, string>([]);

/** At most this many requests per route and caller. */
const MAX_CASES_PER_ROUTE = 20;
/** Oversized strings: 100 KB in a form body; in a query string Node's 16 KB header limit answers first. */
const BIG_BODY = "x".repeat(100_000);
const BIG_QUERY = "x".repeat(6_000);
const BIG_LIST = Array.from({ length: 10_000 }, (_, i) => i + 1);
const BIG_QUERY_LIST = Array.from({ length: 1_000 }, (_, i) => i + 1);

/** Routes whose success changes who may call the rest: run last, in this order (the organization's deactivation by its owner ends the pass). */
const LAST = ["DELETE /users/me", "POST /realm/deactivate"];
/** Routes an administrator may use: tried as the owner too. */
const ADMIN_PATH = /^\/(realm|default_streams|bots|user_groups)|^\/users(\/\{user_id\}|$)/;

interface Param {
  name: string;
  type: string;
  in: "path" | "query" | "body";
  required: boolean;
  example?: unknown;
}
interface Case {
  label: string;
  path: string;
  params: Record<string, unknown>;
}

const org = useTestOrg();

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

const BAD_PATH_VALUES = ["abc", "0", "99999999999999", "9223372036854775808"];

/** Builds the bounded cases of one route: nothing, bad path values, then each parameter's bad values in turn. */
function casesFor(route: Route, pathValues: Record<string, string>): Case[] {
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

/** Item count and a hash of every item of the test's table (a full read: fine in a test, never on a request path). */
async function fingerprint(): Promise<{ count: number; hash: string; keys: Map<string, string> }> {
  const client = localDynamoDbClient(inject("dynamoEndpoint")!);
  const keys = new Map<string, string>();
  try {
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({ TableName: org.stack.deps.config.TABLE_NAME, ConsistentRead: true, ExclusiveStartKey: startKey }),
      );
      for (const item of page.Items ?? []) {
        const sorted = JSON.stringify(Object.keys(item).sort().map((k) => [k, item[k]]));
        keys.set(`${item.pk?.S}|${item.sk?.S}`, createHash("sha1").update(sorted).digest("hex"));
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  } finally {
    client.destroy();
  }
  const hash = createHash("sha1").update(JSON.stringify([...keys.entries()].sort())).digest("hex");
  return { count: keys.size, hash, keys };
}

function changedKeys(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of b) if (a.get(k) !== v) out.push(k);
  for (const k of a.keys()) if (!b.has(k)) out.push(`-${k}`);
  return out.slice(0, 5);
}

/** API routes that answer a success with a redirect to another site (gravatar): not followed. */
const REDIRECTS = new Set(["GET /realm/icon", "GET /realm/logo"]);

/** A GET whose redirect is not followed; the body parsed when it is JSON. */
async function getNoFollow(user: TestUser, c: Case): Promise<{ status: number; body: Record<string, any> }> {
  const qs = encodeParams(c.params).toString();
  const res = await fetch(`${org.url}/api/v1${c.path}${qs ? `?${qs}` : ""}`, {
    headers: { authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}` },
    redirect: "manual",
  });
  const text = await res.text();
  let body: Record<string, any> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { raw: text };
  }
  return { status: res.status, body };
}

/** HEAD carries its parameters in the query string; the answer has no body. */
async function head(user: TestUser, c: Case): Promise<{ status: number; body: Record<string, any> }> {
  const qs = encodeParams(c.params).toString();
  const res = await fetch(`${org.url}/api/v1${c.path}${qs ? `?${qs}` : ""}`, {
    method: "HEAD",
    headers: { authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}` },
  });
  return { status: res.status, body: {} };
}

describe("bad input to every route", () => {
  it("is refused with a Zulip 4xx envelope and writes nothing, or succeeds with a success envelope; never 5xx", async () => {
    const started = Date.now();
    const { member, owner } = org.users;
    const streamId = (await createStream(org, member, "bad input", {})).stream_id;
    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: streamId, topic: "t", content: "hi" });
    const target = await org.createUser("badinputtarget");
    const pathValues: Record<string, string> = {
      user_id: String(target.id),
      stream_id: String(streamId),
      message_id: String(sent.body.id),
      muted_user_id: String(org.users.member2.id),
      bot_id: String(org.users.bot.id),
      integration_name: "github",
    };

    const order = (r: Route) => LAST.indexOf(`${r.method} ${r.path}`);
    const routes = [...ROUTES].sort((a, b) => order(a) - order(b));
    const failures: string[] = [];
    const knownHit: string[] = [];
    const covered = new Set<string>();
    let requests = 0;
    let refused = 0;
    for (const route of routes) {
      const routeKey = `${route.method} ${route.path}`;
      // The prefix tells an API route from its site-root twin (same method and path).
      covered.add(`${route.prefix} ${routeKey}`);
      // Deactivating oneself succeeds with no parameters: a user of its own, so the member stays usable.
      const self = routeKey === "DELETE /users/me" ? await org.createUser("badinputself") : member;
      const callers: TestUser[] = ADMIN_PATH.test(route.path) && route.method !== "GET" ? [self, owner] : [self];
      for (const caller of callers) {
        let before = await fingerprint();
        for (const c of casesFor(route, pathValues)) {
          const res =
            route.method === "HEAD"
              ? await head(caller, c)
              : REDIRECTS.has(routeKey)
                ? await getNoFollow(caller, c)
                : await org.api(caller, route.method, c.path, c.params);
          requests++;
          const id = `${routeKey} :: ${c.label}${caller === owner ? " (owner)" : ""}`;
          const problems: string[] = [];
          // A success may leave deferred jobs (search indexing, …) that write later: let them finish first.
          if (res.status < 300) await org.stack.drainDeferredWork();
          const after = await fingerprint();
          if (res.status >= 500) problems.push(`status ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          else if (route.method === "HEAD") {
            // A HEAD answer has no body to check.
          } else if (res.status >= 400) {
            refused++;
            const b = res.body;
            if (b.result !== "error" || typeof b.msg !== "string" || b.msg === "" || typeof b.code !== "string") {
              problems.push(`not a Zulip error envelope: ${res.status} ${JSON.stringify(b).slice(0, 200)}`);
            }
            if (after.hash !== before.hash) problems.push(`refused (${res.status} ${b.msg}) but wrote: ${changedKeys(before.keys, after.keys)}`);
          } else if (res.status === 302 && REDIRECTS.has(routeKey)) {
            if (after.hash !== before.hash) problems.push(`redirected but wrote: ${changedKeys(before.keys, after.keys)}`);
          } else if (res.status >= 200 && res.status < 300) {
            if (res.body.result !== "success" || res.body.msg !== "") problems.push(`2xx without a success envelope: ${JSON.stringify(res.body).slice(0, 200)}`);
          } else {
            problems.push(`unexpected status ${res.status}`);
          }
          before = after;
          if (problems.length === 0) continue;
          if (KNOWN_FAILURES.has(id)) knownHit.push(id);
          else failures.push(`${id}: ${problems.join("; ")}`);
        }
        // Every success was drained above, so a deferred write here came from a refused request.
        await org.stack.drainDeferredWork();
        const settled = await fingerprint();
        if (settled.hash !== before.hash) {
          failures.push(`${routeKey}: deferred work of a refused request wrote: ${changedKeys(before.keys, settled.keys)}`);
        }
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `bad-input pass: ${covered.size} routes, ${requests} requests (${refused} refused), ${seconds} s; ` +
        `${KNOWN_FAILURES.size} known failures listed, ${knownHit.length} hit${knownHit.length ? `: ${knownHit.join(", ")}` : ""}`,
    );
    expect(covered.size).toBe(ROUTES.length);
    expect(failures).toEqual([]);
  }, 300_000);
});
