import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { jsonCall, postAccounts, webLogin } from "../support/web-session.js";

// Windows of 10^10 seconds: nothing a test run does leaves them (see rate-limits.test.ts).
const WINDOW = "10000000000";
const org = useTestOrg({
  env: {
    RATE_LIMITS: "on",
    RATE_LIMIT_USER_REQUESTS: "3",
    RATE_LIMIT_USER_WINDOW_SECONDS: WINDOW,
    RATE_LIMIT_IP_REQUESTS: "1000",
    RATE_LIMIT_IP_WINDOW_SECONDS: WINDOW,
    RATE_LIMIT_LOGIN_FAILURES: "2",
    RATE_LIMIT_LOGIN_WINDOW_SECONDS: WINDOW,
  },
});

const limited = { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": expect.any(Number) };

describe("rate limits of session requests", () => {
  it("count /json requests per user as /api/v1 ones, and refuse past the limit with 429 RATE_LIMIT_HIT", async () => {
    // Prepare
    const session = await webLogin(org.url, org.users.member.email, `${org.users.member.email}-password`);
    // Act
    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push(await jsonCall(org.url, session, "GET", "/users/me"));
    const refused = await jsonCall(org.url, session, "POST", "/users/me/status", { status_text: "over the limit" });
    // Assess
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(allowed.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    expect(allowed[0]!.headers.get("x-ratelimit-limit")).toBe("3");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(limited);
    const status = await org.api(org.users.member2, "GET", `/users/${org.users.member.id}/status`);
    expect(status.body.status).toEqual({});
  });

  it("count every session of a user together", async () => {
    const second = await webLogin(org.url, org.users.member.email, `${org.users.member.email}-password`);
    expect((await jsonCall(org.url, second, "GET", "/users/me")).status).toBe(429);
  });

  it("throttle failed logins as POST /fetch_api_key does: past the limit even the right password gets 429", async () => {
    const who = { username: org.users.guest.email };
    const wrong = [
      await postAccounts(org.url, "login", { ...who, password: "guess-1" }),
      await postAccounts(org.url, "login", { ...who, password: "guess-2" }),
    ];
    const right = await postAccounts(org.url, "login", { ...who, password: `${org.users.guest.email}-password` });
    expect(wrong.map((r) => r.status)).toEqual([401, 401]);
    expect(right.status).toBe(429);
    expect(right.body).toEqual(limited);
    expect(right.setCookies).toEqual([]);
  });
});
