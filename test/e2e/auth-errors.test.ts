import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

const unauthorized = (msg: string) => ({ result: "error", msg, code: "UNAUTHORIZED" });

describe("authentication errors through HTTP Basic", () => {
  it("answers a wrong API key with 401 UNAUTHORIZED 'Invalid API key' and WWW-Authenticate", async () => {
    const res = await org.api({ ...org.users.member, apiKey: "y".repeat(32) }, "GET", "/users/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    expect(res.body).toEqual(unauthorized("Invalid API key"));
  });

  it("answers a valid key sent with another user's email with 'Invalid API key'", async () => {
    const res = await org.api({ ...org.users.member, email: org.users.member2.email }, "POST", "/users/me/status", {
      status_text: "not mine",
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized("Invalid API key"));
  });

  it("answers a deactivated user with 401 UNAUTHORIZED 'Account is deactivated'; fetch_api_key keeps USER_DEACTIVATED", async () => {
    // Prepare
    const gone = await org.createUser("gone");
    expect((await org.api(org.users.owner, "DELETE", `/users/${gone.id}`)).status).toBe(200);
    // Act
    const res = await org.api(gone, "GET", "/users/me");
    const login = await org.api(null, "POST", "/fetch_api_key", { username: gone.email, password: `${gone.email}-password` });
    // Assess
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized("Account is deactivated"));
    expect(login.status).toBe(401);
    expect(login.body).toEqual({ result: "error", msg: "Account is deactivated", code: "USER_DEACTIVATED" });
  });

  it("answers every user of a deactivated organization with 401 UNAUTHORIZED 'This organization has been deactivated'", async () => {
    // Prepare
    expect((await org.api(org.users.owner, "POST", "/realm/deactivate")).status).toBe(200);
    // Act
    const results = await Promise.all(
      (["owner", "member", "guest", "bot"] as const).map((who) => org.api(org.users[who], "GET", "/users/me")),
    );
    // Assess
    for (const res of results) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized("This organization has been deactivated"));
    }
  });
});

describe("response headers", () => {
  it("sends Cache-Control: no-store and X-Content-Type-Options: nosniff on successes and errors", async () => {
    const responses = [
      await org.api(null, "GET", "/server_settings"),
      await org.api(null, "GET", "/users/me"),
      await org.api(null, "GET", "/no/such/route"),
      await org.api(null, "POST", "/fetch_api_key", { password: "x" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 400]);
    for (const res of responses) {
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-type")).toBe("application/json");
    }
  });

  it("sends no X-RateLimit headers when RATE_LIMITS=off (the test stack's default)", async () => {
    const res = await org.api(null, "GET", "/server_settings");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(res.headers.get("x-ratelimit-remaining")).toBeNull();
  });
});
