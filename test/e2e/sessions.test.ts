import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { hashSessionId } from "../../shared/auth/session.js";
import { keys } from "../../shared/data/keys.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { jsonCall, postAccounts, webLogin, type WebSession } from "../support/web-session.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

const TOKEN = "[A-Za-z0-9_-]{43}";
const notLoggedIn = { result: "error", msg: "Not logged in: API authentication or user session required", code: "UNAUTHORIZED" };
const password = (user: TestUser) => (user.email === "owner@test.example" ? "owner-password" : `${user.email}-password`);
const login = (user: TestUser) => webLogin(org.url, user.email, password(user));

async function sessionItem(session: WebSession): Promise<Record<string, unknown> | undefined> {
  const deps = org.stack.deps;
  const out = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: keys.session(hashSessionId(session.sessionId)), ConsistentRead: true }),
  );
  return out.Item;
}

describe("POST /accounts/login", () => {
  it("answers user_id and email and sets an HttpOnly sessionid and a readable csrftoken, stored only hashed", async () => {
    // Act
    const before = Math.floor(Date.now() / 1000);
    const res = await postAccounts(org.url, "login", { username: org.users.member.email, password: password(org.users.member) });
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", user_id: org.users.member.id, email: org.users.member.email });
    expect(res.setCookies).toHaveLength(2);
    expect(res.setCookies[0]).toMatch(new RegExp(`^sessionid=${TOKEN}; HttpOnly; Path=/; SameSite=Lax; Max-Age=1209600$`));
    expect(res.setCookies[1]).toMatch(new RegExp(`^csrftoken=${TOKEN}; Path=/; SameSite=Lax; Max-Age=1209600$`));
    const session = res.session!;
    const item = (await sessionItem(session))!;
    expect(item).toMatchObject({
      pk: `SESSION#${hashSessionId(session.sessionId)}`,
      type: "session",
      realm_id: org.realm.id,
      user_id: org.users.member.id,
      csrf_token: session.csrfToken,
    });
    expect(item.created_at).toBeGreaterThanOrEqual(before);
    expect(item.expires_at).toBe((item.created_at as number) + 1209600);
    expect(JSON.stringify(item)).not.toContain(session.sessionId);
  });

  it("takes a JSON body, and sets Secure cookies for a request that came over HTTPS", async () => {
    const res = await postAccounts(
      org.url,
      "login",
      { username: org.users.member2.email, password: password(org.users.member2) },
      { "x-forwarded-proto": "https" },
      true,
    );
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(org.users.member2.id);
    expect(res.setCookies[0]).toMatch(/; HttpOnly; Path=\/; SameSite=Lax; Max-Age=1209600; Secure$/);
    expect(res.setCookies[1]).toMatch(/^csrftoken=[^;]+; Path=\/; SameSite=Lax; Max-Age=1209600; Secure$/);
  });

  it("refuses a wrong password with fetch_api_key's 401 AUTHENTICATION_FAILED and sets no cookie", async () => {
    const res = await postAccounts(org.url, "login", { username: org.users.member.email, password: "wrong" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" });
    expect(res.setCookies).toEqual([]);
    const missing = await postAccounts(org.url, "login", { username: org.users.member.email });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: "error", msg: "Missing 'password' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "password" });
  });

  it("refuses a post from another origin with 403 CSRF_FAILED, and takes one from its own", async () => {
    const credentials = { username: org.users.member.email, password: password(org.users.member) };
    const foreign = await postAccounts(org.url, "login", credentials, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      result: "error",
      msg: "CSRF error: Origin checking failed - https://evil.example does not match any trusted origins.",
      code: "CSRF_FAILED",
    });
    expect(foreign.setCookies).toEqual([]);
    const own = await postAccounts(org.url, "login", credentials, { origin: org.url });
    expect(own.status).toBe(200);
  });
});

describe("/json routes", () => {
  it("serve the API with the session cookie and X-CSRFToken, as the same endpoint", async () => {
    const session = await login(org.users.admin);
    const res = await jsonCall(org.url, session, "GET", "/users/me");
    expect(res.status).toBe(200);
    const api = await org.api(org.users.admin, "GET", "/users/me");
    expect(res.body).toEqual(api.body);
  });

  it("refuse a missing or wrong X-CSRFToken with 403 CSRF_FAILED, GET included, and change nothing", async () => {
    const session = await login(org.users.admin);
    const missing = await jsonCall(org.url, session, "GET", "/users/me", {}, { csrf: false });
    const wrong = await jsonCall(org.url, session, "POST", "/users/me/status", { status_text: "forged" }, { csrf: "x".repeat(43) });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ result: "error", msg: "CSRF error: CSRF token missing.", code: "CSRF_FAILED" });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ result: "error", msg: "CSRF error: CSRF token incorrect.", code: "CSRF_FAILED" });
    const status = await org.api(org.users.admin, "GET", `/users/${org.users.admin.id}/status`);
    expect(status.body.status).toEqual({});
  });

  it("answer 401 UNAUTHORIZED with WWW-Authenticate: Session without a cookie, or with an unknown one", async () => {
    const none = await jsonCall(org.url, null, "GET", "/users/me");
    const unknown = await jsonCall(org.url, { sessionId: "x".repeat(43), csrfToken: "y".repeat(43) }, "GET", "/users/me");
    for (const res of [none, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(notLoggedIn);
      expect(res.headers.get("www-authenticate")).toBe('Session realm="zulip"');
    }
    // An API key does not open /json, and a session does not open /api/v1.
    expect((await jsonCall(org.url, null, "GET", "/users/me", {}, { prefix: "/api/v1" })).status).toBe(401);
  });

  it("send a message a second client's event queue receives", async () => {
    // Prepare
    const session = await login(org.users.member);
    const other = new EventQueueClient({ baseUrl: org.url, email: org.users.member2.email, apiKey: org.users.member2.apiKey, onEvent: validateEvent });
    await other.register({ event_types: ["message"] });
    // Act
    const sent = await jsonCall(org.url, session, "POST", "/messages", {
      type: "direct",
      to: [org.users.member2.id],
      content: "sent from the web app",
    });
    // Assess
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ result: "success", msg: "", id: expect.any(Number) });
    const events = await other.poll();
    const message = events.find((e) => e.type === "message")!;
    expect(message.message).toMatchObject({ id: sent.body.id, sender_id: org.users.member.id, content: "sent from the web app" });
  });

  it("take the session cookie alone on the site-root file links an <img> loads", async () => {
    const session = await login(org.users.member);
    const form = new FormData();
    form.append("file", new Blob(["GIF89a"], { type: "image/gif" }), "pic.gif");
    const upload = await fetch(`${org.url}/json/user_uploads`, {
      method: "POST",
      headers: { cookie: `sessionid=${session.sessionId}`, "x-csrftoken": session.csrfToken },
      body: form,
    });
    expect(upload.status).toBe(200);
    const url = ((await upload.json()) as { url: string }).url;
    const withCookie = await fetch(`${org.url}${url}`, { headers: { cookie: `sessionid=${session.sessionId}` }, redirect: "manual" });
    expect(withCookie.status).toBe(302);
    const without = await fetch(`${org.url}${url}`, { redirect: "manual" });
    expect(without.status).toBe(401);
  });
});

describe("POST /accounts/logout", () => {
  it("deletes the session and both cookies; the session then gets 401, and a second logout succeeds too", async () => {
    // Prepare
    const session = await login(org.users.moderator);
    const cookie = { cookie: `sessionid=${session.sessionId}` };
    // Act
    const refused = await postAccounts(org.url, "logout", {}, cookie);
    const out = await postAccounts(org.url, "logout", {}, { ...cookie, "x-csrftoken": session.csrfToken });
    const again = await postAccounts(org.url, "logout", {}, { ...cookie, "x-csrftoken": session.csrfToken });
    // Assess
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ result: "error", msg: "CSRF error: CSRF token missing.", code: "CSRF_FAILED" });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ result: "success", msg: "" });
    expect(out.setCookies).toEqual([
      "sessionid=; HttpOnly; Path=/; SameSite=Lax; Max-Age=0",
      "csrftoken=; Path=/; SameSite=Lax; Max-Age=0",
    ]);
    expect(await sessionItem(session)).toBeUndefined();
    const after = await jsonCall(org.url, session, "GET", "/users/me");
    expect(after.status).toBe(401);
    expect(after.body).toEqual(notLoggedIn);
    expect(again.status).toBe(200);
    expect(again.setCookies).toHaveLength(2);
  });
});

describe("deactivation", () => {
  it("logs a deactivated user out (401, session item gone) and refuses their login with USER_DEACTIVATED", async () => {
    // Prepare
    const gone = await org.createUser("session-gone");
    const session = await login(gone);
    expect((await jsonCall(org.url, session, "GET", "/users/me")).status).toBe(200);
    // Act
    expect((await org.api(org.users.owner, "DELETE", `/users/${gone.id}`)).status).toBe(200);
    // Assess
    expect(await sessionItem(session)).toBeUndefined();
    const after = await jsonCall(org.url, session, "GET", "/users/me");
    expect(after.status).toBe(401);
    expect(after.body).toEqual(notLoggedIn);
    const again = await postAccounts(org.url, "login", { username: gone.email, password: password(gone) });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ result: "error", msg: "Account is deactivated", code: "USER_DEACTIVATED" });
    expect(again.setCookies).toEqual([]);
  });

  it("logs every browser of a deactivated organization out and refuses logins with REALM_DEACTIVATED", async () => {
    // Prepare
    const sessions = [await login(org.users.owner), await login(org.users.guest)];
    // Act
    expect((await jsonCall(org.url, sessions[0]!, "POST", "/realm/deactivate")).status).toBe(200);
    // Assess
    for (const session of sessions) {
      expect(await sessionItem(session)).toBeUndefined();
      expect((await jsonCall(org.url, session, "GET", "/users/me")).body).toEqual(notLoggedIn);
    }
    const again = await postAccounts(org.url, "login", { username: org.users.owner.email, password: "owner-password" });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ result: "error", msg: "This organization has been deactivated", code: "REALM_DEACTIVATED" });
  });
});
