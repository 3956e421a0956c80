import { describe, expect, it } from "vitest";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { userById } from "../../shared/data/users.js";
import { BotType } from "../../shared/domain/roles.js";
import { useTestOrg } from "../support/local-stack.js";

// A window of 10^10 seconds has sub-windows of 10^9 seconds (shared/domain/rate-limit.ts); the one
// from 2001-09-09 to 2033-05-18 (UNIX 10^9 to 2·10^9) holds every test run, so the reset time, when
// that sub-window leaves the sliding window (UNIX 12·10^9), is exact.
const WINDOW = 10_000_000_000;
const RESET = "12000000000";

const org = useTestOrg({
  env: {
    RATE_LIMITS: "on",
    RATE_LIMIT_USER_REQUESTS: "5",
    RATE_LIMIT_USER_WINDOW_SECONDS: String(WINDOW),
    RATE_LIMIT_IP_REQUESTS: "8",
    RATE_LIMIT_IP_WINDOW_SECONDS: String(WINDOW),
    RATE_LIMIT_LOGIN_FAILURES: "3",
    RATE_LIMIT_LOGIN_WINDOW_SECONDS: String(WINDOW),
  },
});

const limited = { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT" };

/** `retry-after` is the float seconds from the moment the server answered to the window's end. */
function expectRetryAfter(body: Record<string, any>, headers: Headers, sentAtMs: number) {
  expect(body["retry-after"]).toBeGreaterThanOrEqual(Number(RESET) - Date.now() / 1000);
  expect(body["retry-after"]).toBeLessThanOrEqual(Number(RESET) - sentAtMs / 1000);
  expect(headers.get("retry-after")).toBe(String(Math.ceil(body["retry-after"])));
}

describe("api_by_user: requests per user", () => {
  it("counts down X-RateLimit-Remaining, then refuses with 429 RATE_LIMIT_HIT and writes nothing", async () => {
    // Act
    const allowed = [];
    for (let i = 0; i < 5; i++) allowed.push(await org.api(org.users.member, "GET", "/users/me"));
    const sentAt = Date.now();
    const refused = await org.api(org.users.member, "PATCH", "/settings", { full_name: "Rate Limited" });
    // Assess
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(allowed.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["4", "3", "2", "1", "0"]);
    for (const r of allowed) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("5");
      expect(r.headers.get("x-ratelimit-reset")).toBe(RESET);
    }
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ ...limited, "retry-after": expect.any(Number) });
    expectRetryAfter(refused.body, refused.headers, sentAt);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("5");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(RESET);
    expect((await userById(org.stack.deps, org.realm.id, org.users.member.id))!.full_name).toBe(org.users.member.fullName);
  });

  it("keeps each user's count apart", async () => {
    const other = await org.api(org.users.member2, "GET", "/users/me");
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("4");
    expect((await org.api(org.users.member, "GET", "/users/me")).status).toBe(429);
  });

  it("answers a wrong API key with its authentication error, not the limit", async () => {
    const res = await org.api({ ...org.users.member, apiKey: "z".repeat(32) }, "GET", "/users/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" });
  });

  it("counts the long poll GET /events like any call, as Zulip does", async () => {
    const queue = await org.api(org.users.guest, "POST", "/register", { event_types: ["message"] });
    expect(queue.status).toBe(200);
    const poll = await org.api(org.users.guest, "GET", "/events", {
      queue_id: queue.body.queue_id,
      last_event_id: queue.body.last_event_id,
      dont_block: true,
    });
    expect(poll.status).toBe(200);
    expect(poll.headers.get("x-ratelimit-remaining")).toBe("3");
  });
});

describe("authenticate_by_username and api_by_ip: POST /fetch_api_key and other unauthenticated calls", () => {
  const username = "member2@test.example";
  const password = "member2@test.example-password";

  it("refuses a username after 3 failed logins, even with the right password; others still log in", async () => {
    // Act
    const failures = [];
    for (let i = 0; i < 3; i++) failures.push(await org.api(null, "POST", "/fetch_api_key", { username, password: "wrong" }));
    const sentAt = Date.now();
    const blocked = await org.api(null, "POST", "/fetch_api_key", { username: username.toUpperCase(), password });
    const other = await org.api(null, "POST", "/fetch_api_key", { username: "owner@test.example", password: "owner-password" });
    // Assess
    for (const f of failures) {
      expect(f.status).toBe(401);
      expect(f.body).toEqual({ result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" });
    }
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ ...limited, "retry-after": expect.any(Number) });
    expectRetryAfter(blocked.body, blocked.headers, sentAt);
    expect(other.status).toBe(200);
    expect(other.body.api_key).toBe(org.users.owner.apiKey);
    expect(other.headers.get("x-ratelimit-limit")).toBe("8");
    expect(other.headers.get("x-ratelimit-remaining")).toBe("3");
  });

  it("refuses an IP address's unauthenticated calls past the limit", async () => {
    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push(await org.api(null, "GET", "/server_settings"));
    const refused = await org.api(null, "GET", "/server_settings");
    const login = await org.api(null, "POST", "/fetch_api_key", { username: "owner@test.example", password: "owner-password" });
    expect(allowed.map((r) => [r.status, r.headers.get("x-ratelimit-remaining")])).toEqual([
      [200, "2"],
      [200, "1"],
      [200, "0"],
    ]);
    for (const res of [refused, login]) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ ...limited, "retry-after": expect.any(Number) });
      expect(res.headers.get("x-ratelimit-limit")).toBe("8");
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    }
    // Authenticated calls count per user, not per IP address.
    expect((await org.api(org.users.admin, "GET", "/users/me")).status).toBe(200);
  });
});

describe("api_by_user on the incoming-webhook endpoint", () => {
  it("counts a webhook bot's requests (api_key or HTTP Basic, HEAD included), then refuses with 429 and posts nothing", async () => {
    // Prepare: a human owner and an incoming-webhook bot, made through the actions (no API calls of their own).
    const owner = await org.createUser("hook-owner");
    const bot = await doCreateUser(org.stack.deps, org.realm, {
      email: "hook-bot@test.example",
      full_name: "Hook Bot",
      is_bot: true,
      bot_type: BotType.INCOMING_WEBHOOK,
      bot_owner_id: owner.id,
    });
    const url = (query: Record<string, string>) => `${org.url}/api/v1/external/json?${new URLSearchParams(query)}`;
    const post = (query: Record<string, string>, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url(query), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    const basic = { authorization: `Basic ${Buffer.from(`${bot.delivery_email}:${bot.api_key}`).toString("base64")}` };
    // Act
    const allowed = [
      await post({ api_key: bot.api_key }, { n: 1 }),
      await post({ api_key: bot.api_key }, { n: 2 }),
      await post({}, { n: 3 }, basic),
      await fetch(url({ api_key: bot.api_key }), { method: "HEAD" }),
      await post({ api_key: bot.api_key }, { n: 4 }),
    ];
    const sentAt = Date.now();
    const refused = await post({ api_key: bot.api_key }, { n: 5 });
    const refusedBody = (await refused.json()) as Record<string, any>;
    const seen = await org.api(owner, "GET", "/messages", {
      anchor: "newest",
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: "sender", operand: bot.user_id }],
      apply_markdown: false,
    });
    // Assess
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(allowed.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["4", "3", "2", "1", "0"]);
    for (const r of allowed) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("5");
      expect(r.headers.get("x-ratelimit-reset")).toBe(RESET);
    }
    expect(refused.status).toBe(429);
    expect(refusedBody).toEqual({ ...limited, "retry-after": expect.any(Number) });
    expectRetryAfter(refusedBody, refused.headers, sentAt);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("5");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(RESET);
    expect(seen.status).toBe(200);
    expect(seen.body.messages.map((m: { content: string }) => JSON.parse(m.content.replace(/^```json\n|\n```$/g, "")).n)).toEqual([1, 2, 3, 4]);
  });
});
