import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DynamoDBClient, ScanCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { localDynamoDbClient } from "../../shared/data/table-admin.js";
import { GROUPS, JSON_PREFIX, ROUTES, type Group, type Route } from "../../shared/routes.js";
import { useTestOrg, type TestOrg } from "../support/local-stack.js";
import { REPO_ROOT } from "../support/openapi.js";
import { casesFor, MAX_CASES_PER_ROUTE, type Case } from "./bad-input-cases.js";
import { encodeParams, type TestUser } from "../support/api-client.js";
import { createStream } from "./streams-helpers.js";

/**
 * A bounded bad-input pass over every route of the route table: for each
 * route, the cases of `bad-input-cases.ts` (no parameters, then each
 * parameter wrong-typed, malformed, oversized, out of range, and bad path
 * parameters), as the member and, for an administrator's route, as the
 * owner too. A refused request must answer 4xx with a Zulip error
 * envelope and write nothing; no request may answer 5xx; a 2xx answer to odd
 * input is allowed (Zulip ignores some parameters) but must be a success
 * envelope.
 *
 * The pass is split by what it sends, not by the clock: one test file per
 * part of {@link BAD_INPUT_PARTS} (so the two vitest workers share them),
 * one `describe` per route group, one test per route. A route's test sends
 * at most {@link MAX_CASES_PER_ROUTE} requests per caller and at most two
 * callers, so at most 40 requests; its timeout is derived from the count it
 * sends ({@link timeoutFor}), with room for a machine many times slower than
 * a quiet one.
 *
 * Exceptions are listed here, each with its reason, counted and printed.
 * Each entry is "METHOD PATH :: case label".
 */
const KNOWN_FAILURES: ReadonlyMap<string, string> = new Map<string, string>([]);

/**
 * The test files of the pass, `test/e2e/bad-input-<part>.test.ts`, and the
 * route groups each covers: every group of {@link GROUPS} exactly once. Five
 * files so that two vitest workers finish together: measured on a loaded
 * machine, realm takes about a third of the pass, streams and files a fifth
 * each, and the small groups join users or messages.
 */
export const BAD_INPUT_PARTS = {
  realm: ["realm"],
  streams: ["streams"],
  files: ["files"],
  users: ["users", "events"],
  messages: ["messages", "presence", "unauthenticated", "webhooks", "web"],
} as const satisfies Record<string, readonly Group[]>;
export type BadInputPart = keyof typeof BAD_INPUT_PARTS;

/**
 * Time allowed per request of a route's test, in milliseconds: the request,
 * a full read of the test's table after it, and the deferred work of a
 * success. Measured at a load average of 13 to 16 on 2 cores: 400 ms per
 * request on average, 1.3 s for the slowest route (a table that grew with
 * the file's earlier successes); this leaves more than twice that.
 */
const BUDGET_PER_REQUEST_MS = 3_000;
/** Fixed part of a route's timeout (a user created for the route, the final drain and read), in milliseconds. */
const BUDGET_PER_TEST_MS = 30_000;

/** Routes whose success changes who may call the rest: run last, in this order (the organization's deactivation by its owner ends the pass). */
const LAST = ["DELETE /users/me", "POST /realm/deactivate"];
/** Routes an administrator may use: tried as the owner too. */
const ADMIN_PATH = /^\/(realm|default_streams|bots|user_groups)|^\/users(\/\{user_id\}|$)/;
/** API routes that answer a success with a redirect to another site (gravatar): not followed. */
const REDIRECTS = new Set(["GET /realm/icon", "GET /realm/logo"]);

/** `METHOD PATH` of a route, the key of {@link LAST}, {@link REDIRECTS} and {@link KNOWN_FAILURES}. */
const keyOf = (route: Route) => `${route.method} ${route.path}`;

/** Whether the route is also tried as the owner (an administrator's route that is not a read). */
const asOwnerToo = (route: Route) => ADMIN_PATH.test(route.path) && route.method !== "GET";

/**
 * The routes of some groups, in the order the pass tries them: the route
 * table's order but {@link LAST} at the end. The `/json` copies are left
 * out: they are the API routes' endpoints behind another authentication,
 * which `test/e2e/sessions.test.ts` covers.
 */
export function routesOf(groups: readonly Group[]): Route[] {
  const order = (r: Route) => LAST.indexOf(keyOf(r));
  return ROUTES.filter((r) => groups.includes(r.group) && r.prefix !== JSON_PREFIX).sort((a, b) => order(a) - order(b));
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
