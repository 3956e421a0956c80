import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { encodeParams, type TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { listRealmUsers } from "../../shared/data/users.js";
import { subscribeTo } from "./streams-helpers.js";

/**
 * Responses stay within Lambda's payload limit: a byte budget on the body as
 * Lambda carries it (`RESPONSE_BYTE_BUDGET`, lowered here so a few dozen
 * messages reach it), and compression for clients that accept it.
 */
const BUDGET = 120_000;
const org = useTestOrg({ env: { RESPONSE_BYTE_BUDGET: String(BUDGET) } });

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes on the wire, not decompressed. */
  bytes: Buffer;
}

/** One request through node:http, which neither adds `Accept-Encoding` nor decompresses. */
function raw(user: TestUser, method: string, path: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const encoded = encodeParams(params).toString();
  const url = new URL(`${org.url}/api/v1${path}${method === "GET" ? `?${encoded}` : ""}`);
  const all: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`,
    ...headers,
  };
  if (method !== "GET") all["content-type"] = "application/x-www-form-urlencoded";
  return new Promise<RawResponse>((resolve, reject) => {
    const req = httpRequest(url, { method, headers: all }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(method === "GET" ? undefined : encoded);
  });
}

function json(res: RawResponse): Record<string, any> {
  const coding = res.headers["content-encoding"];
  const text =
    coding === "gzip" ? gunzipSync(res.bytes) : coding === "br" ? brotliDecompressSync(res.bytes) : res.bytes;
  return JSON.parse(text.toString("utf8"));
}

const STREAM = "budget long messages";
const SENT = 30;
let sentIds: number[] = [];

describe("GET /messages within the response byte budget", () => {
  beforeAll(async () => {
    await subscribeTo(org, org.users.member, [STREAM]);
    sentIds = [];
    for (let i = 0; i < SENT; i++) {
      // About 9 KB of content: the budget holds a dozen of these.
      const content = `message ${i} ` + "lorem ipsum dolor sit amet ".repeat(330);
      const res = await org.api(org.users.member, "POST", "/messages", { type: "stream", to: STREAM, topic: "long", content });
      expect(res.status).toBe(200);
      sentIds.push(res.body.id);
    }
  }, 120_000);

  const narrow = [{ operator: "channel", operand: STREAM }];

  it("returns the newest messages that fit, found_oldest false, and paging from the oldest returned reaches them all", async () => {
    const first = await raw(org.users.member, "GET", "/messages", { anchor: "newest", num_before: 5000, num_after: 0, narrow });
    expect(first.status).toBe(200);
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(first.bytes.length).toBeLessThanOrEqual(BUDGET);
    const page = json(first);
    expect(page.messages.length).toBeGreaterThan(0);
    expect(page.messages.length).toBeLessThan(SENT);
    expect(page.messages.map((m: any) => m.id)).toEqual(sentIds.slice(SENT - page.messages.length));
    expect(page).toMatchObject({ result: "success", found_oldest: false, found_newest: true, found_anchor: false, history_limited: false });

    // The client asks again from the oldest message it got, until found_oldest.
    const seen: number[] = page.messages.map((m: any) => m.id);
    let anchor = seen[0]!;
    for (let round = 0; round < SENT; round++) {
      const res = await raw(org.users.member, "GET", "/messages", {
        anchor,
        include_anchor: false,
        num_before: 5000,
        num_after: 0,
        narrow,
      });
      expect(res.bytes.length).toBeLessThanOrEqual(BUDGET);
      const next = json(res);
      seen.unshift(...next.messages.map((m: any) => m.id));
      if (next.found_oldest) break;
      anchor = next.messages[0].id;
    }
    expect(seen).toEqual(sentIds);
  });

  it("keeps the anchor and its nearest neighbours on both sides, found_newest and found_oldest false", async () => {
    const middle = sentIds[SENT / 2]!;
    const res = await raw(org.users.member, "GET", "/messages", { anchor: middle, num_before: 2500, num_after: 2500, narrow });
    expect(res.bytes.length).toBeLessThanOrEqual(BUDGET);
    const page = json(res);
    const ids: number[] = page.messages.map((m: any) => m.id);
    const at = sentIds.indexOf(ids[0]!);
    expect(ids).toEqual(sentIds.slice(at, at + ids.length));
    expect(ids).toContain(middle);
    // Nearest first, alternating: the two sides differ by at most one message.
    const before = ids.filter((id) => id < middle).length;
    const after = ids.filter((id) => id > middle).length;
    expect(Math.abs(before - after)).toBeLessThanOrEqual(1);
    expect(page).toMatchObject({ found_anchor: true, found_oldest: false, found_newest: false });
  });
});

describe("compression", () => {
  const params = () => ({ anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "channel", operand: STREAM }] });

  it("a client accepting gzip gets Content-Encoding gzip, Vary, and the same JSON", async () => {
    const identity = await raw(org.users.member, "GET", "/messages", params());
    const gzip = await raw(org.users.member, "GET", "/messages", params(), { "accept-encoding": "gzip" });
    expect(gzip.status).toBe(200);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(String(gzip.headers.vary)).toMatch(/Accept-Encoding/);
    expect(gzip.headers["content-type"]).toBe("application/json");
    expect(gzip.bytes.length).toBeLessThan(identity.bytes.length / 3);
    expect(json(gzip)).toEqual(json(identity));
  });

  it("weights pick the coding: br preferred by q, gzip refused with q=0", async () => {
    const br = await raw(org.users.member, "GET", "/messages", params(), { "accept-encoding": "gzip;q=0.5, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    const none = await raw(org.users.member, "GET", "/messages", params(), { "accept-encoding": "gzip;q=0" });
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(json(br)).toEqual(json(none));
  });

  it("a client without Accept-Encoding gets identity, still with Vary", async () => {
    const res = await raw(org.users.member, "GET", "/messages", params());
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(String(res.headers.vary)).toMatch(/Accept-Encoding/);
    expect(JSON.parse(res.bytes.toString("utf8")).result).toBe("success");
  });

  it("small bodies are not compressed, but say that they vary", async () => {
    const res = await raw(org.users.member, "GET", "/users/me/alert_words", {}, { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.bytes.length).toBeLessThan(1024);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(String(res.headers.vary)).toMatch(/Accept-Encoding/);
    expect(JSON.parse(res.bytes.toString("utf8"))).toEqual({ result: "success", msg: "", alert_words: [] });
  });
});

describe("POST /register with include_subscribers in an organization of many streams", () => {
  const STREAMS = 150;
  beforeAll(async () => {
    const principals = Object.values(org.users).map((u) => u.id);
    for (let i = 0; i < STREAMS; i += 50) {
      const names = Array.from({ length: Math.min(50, STREAMS - i) }, (_, j) => `budget stream ${i + j}`);
      await subscribeTo(org, org.users.admin, names, { principals });
    }
  }, 120_000);

  it("answers a gzip client within the budget, with the same subscriber lists as identity", async () => {
    const params = { fetch_event_types: ["subscription", "stream", "realm_user"], include_subscribers: true };
    const identity = await raw(org.users.member, "POST", "/register", params);
    const gzip = await raw(org.users.member, "POST", "/register", params, { "accept-encoding": "gzip, deflate" });
    expect(gzip.status).toBe(200);
    // Uncompressed, this organization's state is over the (lowered) budget; compressed, well within it.
    expect(identity.bytes.length).toBeGreaterThan(BUDGET);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.bytes.toString("base64").length).toBeLessThan(BUDGET);
    const a = json(identity);
    const b = json(gzip);
    expect(b.subscriptions).toEqual(a.subscriptions);
    expect(b.subscriptions.length).toBeGreaterThanOrEqual(STREAMS);
    const everyone = Object.values(org.users).map((u) => u.id).sort((x, y) => x - y);
    const stream = b.subscriptions.find((s: any) => s.name === "budget stream 7");
    expect(stream.subscribers).toEqual(everyone);
  });

  it("reads the subscriber lists in a few parallel Queries, not one per stream", async () => {
    const queries: Record<string, any>[] = [];
    const db = org.stack.deps.db;
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "QueryCommand") queries.push(args.input as Record<string, any>);
        return next(args);
      },
      { step: "initialize", name: "countRegisterQueries" },
    );
    let res;
    try {
      res = await org.api(org.users.member, "POST", "/register", {
        fetch_event_types: ["subscription"],
        include_subscribers: true,
      });
    } finally {
      db.middlewareStack.remove("countRegisterQueries");
    }
    expect(res.status).toBe(200);
    expect(res.body.subscriptions.length).toBeGreaterThanOrEqual(STREAMS);
    const pk = (q: Record<string, any>) => String(Object.values(q.ExpressionAttributeValues ?? {})[0]);
    const perStream = queries.filter((q) => pk(q).startsWith("STREAMSUBS#"));
    const perUser = queries.filter((q) => pk(q).startsWith("SUBS#"));
    const users = (await listRealmUsers(org.stack.deps, org.realm.id)).length;
    expect(perStream).toHaveLength(0);
    // One per user of the realm, plus the member's own subscriptions.
    expect(perUser.length).toBeLessThanOrEqual(users + 1);
    expect(perUser.length).toBeLessThan(STREAMS / 10);
  });
});
