import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DynamoDBClient, ScanCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { localDynamoDbClient } from "../../shared/data/table-admin.js";
import { GROUPS, ROUTES, type Group, type Route } from "../../shared/routes.js";
import { useTestOrg, type TestOrg } from "../support/local-stack.js";
import { contractAvailable, loadContract, REPO_ROOT } from "../support/openapi.js";
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
 * The pass is split by what it sends, not by the clock: one test file per
 * part of {@link BAD_INPUT_PARTS} (so the two vitest workers share them),
 * one `describe` per route group, one test per route. A route's test sends
 * at most {@link MAX_CASES_PER_ROUTE} requests per caller and at most two
 * callers, so at most 40 requests; its timeout is derived from the count it
 * sends ({@link timeoutFor}), with room for a machine several times slower
 * than a quiet one.
 *
 * Exceptions are listed here, each with its reason, counted and printed.
 * Each entry is "METHOD PATH :: case label".
 */
const KNOWN_FAILURES: ReadonlyMap<string, string> = new Map<string, string>([]);

/**
 * The test files of the pass, `test/e2e/bad-input-<part>.test.ts`, and the
 * route groups each covers: every group of {@link GROUPS} exactly once,
 * balanced by request count (about 300 to 550 requests per file).
 */
export const BAD_INPUT_PARTS = {
  users: ["users"],
  files: ["files"],
  realm: ["realm", "events", "presence"],
  conversations: ["streams", "messages", "unauthenticated", "webhooks"],
} as const satisfies Record<string, readonly Group[]>;
export type BadInputPart = keyof typeof BAD_INPUT_PARTS;

/** At most this many requests per route and caller. */
export const MAX_CASES_PER_ROUTE = 20;
/**
 * Time allowed per request of a route's test, in milliseconds: the request,
 * a full read of the test's table after it, and the deferred work of a
 * success. A quiet machine needs about 30 ms (measured); this is over 10x
 * that, for a loaded 2-core machine.
 */
const BUDGET_PER_REQUEST_MS = 1_000;
/** Fixed part of a route's timeout (a user created for the route, the final drain and read), in milliseconds. */
const BUDGET_PER_TEST_MS = 10_000;

/** Oversized strings: 100 KB in a form body; in a query string Node's 16 KB header limit answers first. */
const BIG_BODY = "x".repeat(100_000);
const BIG_QUERY = "x".repeat(6_000);
const BIG_LIST = Array.from({ length: 10_000 }, (_, i) => i + 1);
const BIG_QUERY_LIST = Array.from({ length: 1_000 }, (_, i) => i + 1);

/** Routes whose success changes who may call the rest: run last, in this order (the organization's deactivation by its owner ends the pass). */
const LAST = ["DELETE /users/me", "POST /realm/deactivate"];
/** Routes an administrator may use: tried as the owner too. */
const ADMIN_PATH = /^\/(realm|default_streams|bots|user_groups)|^\/users(\/\{user_id\}|$)/;
/** API routes that answer a success with a redirect to another site (gravatar): not followed. */
const REDIRECTS = new Set(["GET /realm/icon", "GET /realm/logo"]);
const BAD_PATH_VALUES = ["abc", "0", "99999999999999", "9223372036854775808"];

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

/** `METHOD PATH` of a route, the key of {@link LAST}, {@link REDIRECTS} and {@link KNOWN_FAILURES}. */
const keyOf = (route: Route) => `${route.method} ${route.path}`;

/** Whether the route is also tried as the owner (an administrator's route that is not a read). */
const asOwnerToo = (route: Route) => ADMIN_PATH.test(route.path) && route.method !== "GET";

/**
 * The routes of some groups, in the order the pass tries them: the route
 * table's order but {@link LAST} at the end.
 */
export function routesOf(groups: readonly Group[]): Route[] {
  const order = (r: Route) => LAST.indexOf(keyOf(r));
  return ROUTES.filter((r) => groups.includes(r.group)).sort((a, b) => order(a) - order(b));
}

/**
 * How many requests the pass sends to one route: its cases (at most
 * {@link MAX_CASES_PER_ROUTE}) times its callers (the member, and the owner
 * for an administrator's route). The cases' number does not depend on the
 * path values.
 */
export function requestCount(route: Route): number {
  return casesFor(route, {}).length * (asOwnerToo(route) ? 2 : 1);
}

/** A route test's timeout in milliseconds, from the number of requests it sends. */
export function timeoutFor(requests: number): number {
  return BUDGET_PER_TEST_MS + requests * BUDGET_PER_REQUEST_MS;
}

interface Fingerprint {
  count: number;
  hash: string;
  keys: Map<string, string>;
}

/** Item count and a hash of every item of the test's table (a full read: fine in a test, never on a request path). */
async function fingerprint(client: DynamoDBClient, tableName: string): Promise<Fingerprint> {
  const keys = new Map<string, string>();
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: startKey }));
    for (const item of page.Items ?? []) {
      const sorted = JSON.stringify(Object.keys(item).sort().map((k) => [k, item[k]]));
      keys.set(`${item.pk?.S}|${item.sk?.S}`, createHash("sha1").update(sorted).digest("hex"));
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const hash = createHash("sha1").update(JSON.stringify([...keys.entries()].sort())).digest("hex");
  return { count: keys.size, hash, keys };
}

function changedKeys(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of b) if (a.get(k) !== v) out.push(k);
  for (const k of a.keys()) if (!b.has(k)) out.push(`-${k}`);
  return out.slice(0, 5);
}

function basicAuth(user: TestUser): string {
  return `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`;
}

/** A GET whose redirect is not followed; the body parsed when it is JSON. */
async function getNoFollow(org: TestOrg, user: TestUser, c: Case): Promise<{ status: number; body: Record<string, any> }> {
  const qs = encodeParams(c.params).toString();
  const res = await fetch(`${org.url}/api/v1${c.path}${qs ? `?${qs}` : ""}`, {
    headers: { authorization: basicAuth(user) },
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
async function head(org: TestOrg, user: TestUser, c: Case): Promise<{ status: number; body: Record<string, any> }> {
  const qs = encodeParams(c.params).toString();
  const res = await fetch(`${org.url}/api/v1${c.path}${qs ? `?${qs}` : ""}`, {
    method: "HEAD",
    headers: { authorization: basicAuth(user) },
  });
  return { status: res.status, body: {} };
}

/** What the route tests of one file share: the table reader, the path values and the tally. */
interface PassState {
  client: DynamoDBClient;
  pathValues: Record<string, string>;
  requests: number;
  refused: number;
  knownHit: string[];
}

/**
 * Sends every bad case of one route as each of its callers and returns the
 * problems found (empty when the route holds). Counts what it sends in `state`.
 */
async function probeRoute(org: TestOrg, state: PassState, route: Route): Promise<{ sent: number; failures: string[] }> {
  const routeKey = keyOf(route);
  const { member, owner } = org.users;
  const tableName = org.stack.deps.config.TABLE_NAME;
  const failures: string[] = [];
  let sent = 0;
  // Deactivating oneself succeeds with no parameters: a user of its own, so the member stays usable.
  const self = routeKey === "DELETE /users/me" ? await org.createUser("badinputself") : member;
  const callers: TestUser[] = asOwnerToo(route) ? [self, owner] : [self];
  for (const caller of callers) {
    let before = await fingerprint(state.client, tableName);
    for (const c of casesFor(route, state.pathValues)) {
      const res =
        route.method === "HEAD"
          ? await head(org, caller, c)
          : REDIRECTS.has(routeKey)
            ? await getNoFollow(org, caller, c)
            : await org.api(caller, route.method, c.path, c.params);
      sent++;
      const id = `${routeKey} :: ${c.label}${caller === owner ? " (owner)" : ""}`;
      const problems: string[] = [];
      // A success may leave deferred jobs (search indexing, …) that write later: let them finish first.
      if (res.status < 300) await org.stack.drainDeferredWork();
      const after = await fingerprint(state.client, tableName);
      if (res.status >= 500) problems.push(`status ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      else if (route.method === "HEAD") {
        // A HEAD answer has no body to check.
      } else if (res.status >= 400) {
        state.refused++;
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
      if (KNOWN_FAILURES.has(id)) state.knownHit.push(id);
      else failures.push(`${id}: ${problems.join("; ")}`);
    }
    // Every success was drained above, so a deferred write here came from a refused request.
    await org.stack.drainDeferredWork();
    const settled = await fingerprint(state.client, tableName);
    if (settled.hash !== before.hash) {
      failures.push(`${routeKey}: deferred work of a refused request wrote: ${changedKeys(before.keys, settled.keys)}`);
    }
  }
  state.requests += sent;
  return { sent, failures };
}

/** The file of one part of the pass, relative to the repository root. */
export const partFile = (part: string) => `test/e2e/bad-input-${part}.test.ts`;

/**
 * Registers one part of the pass (call it once, at the top of
 * {@link partFile}): a local stack of its own, one `describe` per route
 * group of the part and one test per route, each with a timeout from the
 * number of requests it sends; and a test that the parts together cover
 * every route group, each part in its file.
 */
export function badInputSuite(part: BadInputPart): void {
  const org = useTestOrg();
  const state: PassState = { client: undefined as unknown as DynamoDBClient, pathValues: {}, requests: 0, refused: 0, knownHit: [] };
  const started = Date.now();

  beforeAll(async () => {
    state.client = localDynamoDbClient(inject("dynamoEndpoint")!);
    const { member } = org.users;
    const streamId = (await createStream(org, member, "bad input", {})).stream_id;
    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: streamId, topic: "t", content: "hi" });
    const target = await org.createUser("badinputtarget");
    state.pathValues = {
      user_id: String(target.id),
      stream_id: String(streamId),
      message_id: String(sent.body.id),
      muted_user_id: String(org.users.member2.id),
      bot_id: String(org.users.bot.id),
      integration_name: "github",
    };
  });
  afterAll(() => {
    state.client?.destroy();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `bad-input ${part}: ${state.requests} requests (${state.refused} refused), ${seconds} s; ` +
        `${KNOWN_FAILURES.size} known failures listed, ${state.knownHit.length} hit${state.knownHit.length ? `: ${state.knownHit.join(", ")}` : ""}`,
    );
  });

  it("the parts together cover every route group once, each part in its file", () => {
    const groups: string[] = Object.values(BAD_INPUT_PARTS).flat();
    expect([...groups].sort()).toEqual([...GROUPS].sort());
    for (const name of Object.keys(BAD_INPUT_PARTS)) {
      const file = resolve(REPO_ROOT, partFile(name));
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file, "utf8")).toContain(`badInputSuite("${name}")`);
    }
  });

  for (const group of BAD_INPUT_PARTS[part]) {
    const routes = routesOf([group]);
    const total = routes.reduce((n, r) => n + requestCount(r), 0);
    describe(`bad input to the ${group} routes (${routes.length} routes, ${total} requests): refused with a Zulip 4xx envelope and no write, or a success envelope; never 5xx`, () => {
      for (const route of routes) {
        const count = requestCount(route);
        it(`${route.method} ${route.prefix}${route.path} (${count} requests)`, async () => {
          const { sent, failures } = await probeRoute(org, state, route);
          expect(sent).toBe(count);
          expect(count).toBeLessThanOrEqual(2 * MAX_CASES_PER_ROUTE);
          expect(failures).toEqual([]);
        }, timeoutFor(count));
      }
    });
  }
}
