import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../shared/deps.js";
import { keys } from "../../shared/data/keys.js";
import { encodeParams, type TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";

/**
 * Failed authentications per source address and per claimed email
 * (shared/auth/failed-auth.ts), the sliding window of `api_by_user` across
 * a window boundary with the clock injected, and the DynamoDB work of one
 * rate-limited request. Requests come from distinct loopback addresses
 * (127.0.0.x), which the local stack reports as the source IP.
 */

// Failure windows of 10^10 seconds: nothing a test run does leaves them.
const LONG = "10000000000";
const org = useTestOrg({
  env: {
    RATE_LIMITS: "on",
    RATE_LIMIT_USER_REQUESTS: "5",
    RATE_LIMIT_USER_WINDOW_SECONDS: "60",
    RATE_LIMIT_IP_REQUESTS: "1000",
    RATE_LIMIT_IP_WINDOW_SECONDS: LONG,
    RATE_LIMIT_LOGIN_FAILURES: "3",
    RATE_LIMIT_LOGIN_WINDOW_SECONDS: LONG,
    RATE_LIMIT_IP_AUTH_FAILURES: "6",
    RATE_LIMIT_IP_AUTH_WINDOW_SECONDS: LONG,
  },
});

afterEach(() => {
  org.stack.deps.clock = systemClock;
});

const limited = { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": expect.any(Number) };
const invalidKey = { result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" };
const badPassword = { result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" };

/** Calls the API from the loopback address `from` (the request's source IP). */
function callFrom(
  from: string,
  user: Pick<TestUser, "email" | "apiKey"> | null,
  method: string,
  path: string,
  params: Record<string, unknown> = {},
): Promise<{ status: number; body: Record<string, any> }> {
  const body = method === "GET" ? undefined : encodeParams(params).toString();
  const query = method === "GET" ? encodeParams(params).toString() : "";
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" };
  if (user) headers.authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`;
  const url = new URL(`${org.url}/api/v1${path}${query ? `?${query}` : ""}`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: from },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function counterItemOf(scope: string, subject: string) {
  const hash = createHash("sha256").update(subject, "utf8").digest("hex");
  const out = await org.stack.deps.db.send(
    new GetCommand({ TableName: org.stack.deps.table, Key: keys.rateLimitWindow(scope, hash), ConsistentRead: true }),
  );
  return out.Item;
}

describe("wrong API keys", () => {
  it("answers 401 until the claimed email's limit, then 429; stores nothing per wrong key; the right key still works", async () => {
    // Prepare
    const wrongKeys = ["a", "b", "c", "d", "e"].map((c) => c.repeat(32));
    // Act
    const answers = [];
    for (const apiKey of wrongKeys) answers.push(await callFrom("127.0.0.2", { email: org.users.member.email, apiKey }, "GET", "/users/me"));
    const right = await callFrom("127.0.0.2", org.users.member, "GET", "/users/me");
    // Assess
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429, 429]);
    for (const a of answers.slice(0, 3)) expect(a.body).toEqual(invalidKey);
    for (const a of answers.slice(3)) expect(a.body).toEqual(limited);
    expect(right.status).toBe(200);
    expect(right.body.user_id).toBe(org.users.member.id);
    for (const apiKey of wrongKeys) expect(await counterItemOf("api_by_user", apiKey)).toBeUndefined();
  });
});

describe("a password spray from one address", () => {
  it("is refused past the address's limit, even with a right password; another address signs in, and API keys keep working", async () => {
    // Prepare: 30 accounts.
    const accounts = await Promise.all(Array.from({ length: 30 }, (_, i) => org.createUser(`spray${i}`)));
    // Act: one wrong password per account from 127.0.0.3, then the owner's right password from there and from 127.0.0.4.
    const spray = [];
    for (const a of accounts) spray.push(await callFrom("127.0.0.3", null, "POST", "/fetch_api_key", { username: a.email, password: "guess" }));
    const rightHere = await callFrom("127.0.0.3", null, "POST", "/fetch_api_key", { username: "owner@test.example", password: "owner-password" });
    const rightElsewhere = await callFrom("127.0.0.4", null, "POST", "/fetch_api_key", { username: "owner@test.example", password: "owner-password" });
    const keyHere = await callFrom("127.0.0.3", accounts[29]!, "GET", "/users/me");
    const wrongKeyHere = await callFrom("127.0.0.3", { email: accounts[29]!.email, apiKey: "z".repeat(32) }, "GET", "/users/me");
    // Assess
    expect(spray.map((r) => r.status)).toEqual([...Array(6).fill(401), ...Array(24).fill(429)]);
    for (const r of spray.slice(0, 6)) expect(r.body).toEqual(badPassword);
    for (const r of spray.slice(6)) expect(r.body).toEqual(limited);
    expect(rightHere.status).toBe(429);
    expect(rightHere.body).toEqual(limited);
    expect(rightElsewhere.status).toBe(200);
    expect(rightElsewhere.body.api_key).toBe(org.users.owner.apiKey);
    expect(keyHere.status).toBe(200);
    expect(wrongKeyHere.status).toBe(429);
  }, 300_000);

  it("counts wrong keys sent in HTTP Basic against the address too, whichever email they claim", async () => {
    // Act: 7 wrong keys, each claiming another email, from 127.0.0.5.
    const answers = [];
    for (let i = 0; i < 7; i++) {
      answers.push(await callFrom("127.0.0.5", { email: `nobody${i}@test.example`, apiKey: "q".repeat(32) }, "GET", "/users/me"));
    }
    const rightHere = await callFrom("127.0.0.5", org.users.admin, "GET", "/users/me");
    const rightElsewhere = await callFrom("127.0.0.6", org.users.admin, "GET", "/users/me");
    // Assess
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401, 429]);
    expect(answers[6]!.body).toEqual(limited);
    expect(rightHere.status).toBe(200);
    expect(rightElsewhere.status).toBe(200);
  }, 120_000);
});

describe("api_by_user across a window boundary (clock injected)", () => {
  it("lets no more than the limit through a burst across a minute boundary, and frees it a window later", async () => {
    // Prepare: a minute boundary in the past, so the counts are the test's own.
    const boundary = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
    const at = (ms: number) => {
      org.stack.deps.clock = { now: () => boundary + ms };
    };
    const burst = async (n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(await org.api(org.users.member2, "GET", "/users/me"));
      return out;
    };
    // Act
    at(-1_000);
    const before = await burst(5);
    at(1_000);
    const after = await burst(5);
    at(59_000);
    const stillInWindow = await burst(1);
    at(60_500);
    const nextWindow = await burst(5);
    // Assess
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(before.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["4", "3", "2", "1", "0"]);
    expect(after.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    expect(after[0]!.body).toEqual(limited);
    expect(after[0]!.body["retry-after"]).toBe(59);
    expect(stillInWindow[0]!.status).toBe(429);
    // Refused requests were not counted: the whole limit is back once the burst's sub-window has left.
    expect(nextWindow.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe("DynamoDB work of a rate-limited request", () => {
  it("GET /users/me makes its authentication reads and one counter UpdateItem", async () => {
    // Prepare: a warm counter (the key's counts exist), then count the calls of one request.
    expect((await org.api(org.users.guest, "GET", "/users/me")).status).toBe(200);
    const db = org.stack.deps.db;
    const send = db.send.bind(db);
    const calls: string[] = [];
    db.send = ((command: { constructor: { name: string } }, ...rest: unknown[]) => {
      calls.push(command.constructor.name.replace(/Command$/, ""));
      return (send as (...a: unknown[]) => unknown)(command, ...rest);
    }) as typeof db.send;
    try {
      // Act
      const res = await org.api(org.users.guest, "GET", "/users/me");
      // Assess
      expect(res.status).toBe(200);
      expect(calls.sort(), calls.join(", ")).toEqual(["BatchGet", "Get", "Get", "Update"]);
    } finally {
      db.send = send;
    }
  });
});
