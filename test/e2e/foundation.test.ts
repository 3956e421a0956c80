import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

describe("authentication", () => {
  it("returns the caller for valid Basic credentials", async () => {
    const res = await org.api(org.users.owner, "GET", "/users/me");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: "success",
      msg: "",
      user_id: org.users.owner.id,
      email: "owner@test.example",
      full_name: "Olivia Owner",
      role: 100,
      is_owner: true,
      is_admin: true,
      is_guest: false,
    });
  });

  it("refuses a request without credentials with 401 UNAUTHORIZED and WWW-Authenticate", async () => {
    const res = await org.api(null, "GET", "/users/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    expect(res.body).toEqual({
      result: "error",
      msg: "Not logged in: API authentication or user session required",
      code: "UNAUTHORIZED",
    });
  });

  it("refuses a wrong API key with 401 UNAUTHORIZED 'Invalid API key'", async () => {
    const res = await org.api({ ...org.users.owner, apiKey: "x".repeat(32) }, "GET", "/users/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" });
  });

  it("refuses another user's email with a valid key", async () => {
    const res = await org.api({ ...org.users.owner, email: org.users.member.email }, "GET", "/users/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" });
  });
});

describe("routing", () => {
  it("answers 404 for an unknown path under /api/v1", async () => {
    const res = await org.api(org.users.owner, "GET", "/no/such/endpoint");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: "error", msg: "Not Found" });
  });

  it("answers 405 with allowed_methods for a wrong method", async () => {
    const res = await org.api(org.users.owner, "PUT", "/server_settings");
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ result: "error", msg: "Method Not Allowed", allowed_methods: ["GET"] });
  });
});

describe("GET /server_settings", () => {
  it("serves the version triple and realm without credentials", async () => {
    const res = await org.api(null, "GET", "/server_settings");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: "success",
      zulip_version: "10.0-dev",
      zulip_feature_level: 283,
      zulip_merge_base: "10.0-dev",
      realm_name: "Test Organization",
      realm_uri: org.url,
      push_notifications_enabled: false,
      email_auth_enabled: true,
    });
    expect(res.body.authentication_methods.password).toBe(true);
    // No uploaded icon: Zulip's gravatar identicon of the subdomain (here the default organization's "").
    expect(res.body.realm_icon).toBe("https://secure.gravatar.com/avatar/d41d8cd98f00b204e9800998ecf8427e?d=identicon");
  });
});

describe("the emoji data file (server_emoji_data_url)", () => {
  it("is served without credentials at the URL register gives, canonical names first", async () => {
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    const url = new URL(reg.body.server_emoji_data_url as string);
    expect(url.origin).toBe(new URL(org.url).origin);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code_to_names: Record<string, string[]> };
    expect(body.code_to_names["1f44d"]).toEqual(expect.arrayContaining(["+1", "thumbs_up"]));
    expect(body.code_to_names["1f419"]![0]).toBe("octopus");
    expect(Object.keys(body.code_to_names).length).toBeGreaterThan(1500);
  });
});

describe("POST /fetch_api_key", () => {
  it("exchanges a correct password for the API key", async () => {
    const res = await org.api(null, "POST", "/fetch_api_key", { username: "member@test.example", password: "member@test.example-password" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      api_key: org.users.member.apiKey,
      email: "member@test.example",
      user_id: org.users.member.id,
    });
  });

  it("gives the same 401 for a wrong password and an unknown account", async () => {
    const wrong = await org.api(null, "POST", "/fetch_api_key", { username: "member@test.example", password: "nope" });
    const unknown = await org.api(null, "POST", "/fetch_api_key", { username: "nobody@test.example", password: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("requires username", async () => {
    const res = await org.api(null, "POST", "/fetch_api_key", { password: "x" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Missing 'username' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "username" });
  });
});
