import { describe, expect, it } from "vitest";
import { requestCookie, setCookie } from "./cookies.js";
import { checkSameOrigin, clearedSessionCookies, isSecureRequest, sessionCookies } from "./session-cookies.js";

describe("requestCookie", () => {
  it("reads a payload-2.0 cookies array, one pair per entry, the first of a name winning", () => {
    const event = { cookies: ["csrftoken=abc", "sessionid=s1", "sessionid=s2"] };
    expect(requestCookie(event, "sessionid")).toBe("s1");
    expect(requestCookie(event, "csrftoken")).toBe("abc");
    expect(requestCookie(event, "other")).toBeUndefined();
  });

  it("splits an entry holding several pairs, trims spaces and unquotes a quoted value", () => {
    const event = { cookies: ['a=1; sessionid="q"', " b = 2 "] };
    expect(requestCookie(event, "sessionid")).toBe("q");
    expect(requestCookie(event, "b")).toBe("2");
    expect(requestCookie(event, "a")).toBe("1");
  });

  it("finds nothing without cookies, or in a pair without '='", () => {
    expect(requestCookie({}, "sessionid")).toBeUndefined();
    expect(requestCookie({ cookies: ["sessionid"] }, "sessionid")).toBeUndefined();
    expect(requestCookie({ cookies: ["xsessionid=1"] }, "sessionid")).toBeUndefined();
  });
});

describe("setCookie", () => {
  it("writes the attributes in Django's order", () => {
    expect(setCookie("sessionid", "v", { httpOnly: true, sameSite: "Lax", maxAge: 1209600, secure: true })).toBe(
      "sessionid=v; HttpOnly; Path=/; SameSite=Lax; Max-Age=1209600; Secure",
    );
    expect(setCookie("csrftoken", "t", { sameSite: "Lax" })).toBe("csrftoken=t; Path=/; SameSite=Lax");
    expect(setCookie("x", "", { maxAge: -5 })).toBe("x=; Path=/; Max-Age=0");
  });

  it("refuses a value a cookie cannot hold unquoted", () => {
    for (const bad of ["a b", "a;b", 'a"b', "a,b", "é"]) expect(() => setCookie("x", bad, {})).toThrow();
  });
});

describe("session cookies and origins", () => {
  const local = { host: "127.0.0.1:9991", headers: {} };
  const behindTls = { host: "chat.example.com", headers: { "x-forwarded-proto": "https" } };
  const executeApi = { host: "abc123.execute-api.eu-west-1.amazonaws.com", headers: {} };

  it("counts a request as HTTPS by X-Forwarded-Proto or API Gateway's host, not plain local HTTP", () => {
    expect(isSecureRequest(local)).toBe(false);
    expect(isSecureRequest(behindTls)).toBe(true);
    expect(isSecureRequest(executeApi)).toBe(true);
    expect(isSecureRequest({ host: "chat.example.com", headers: { "x-forwarded-proto": "http" } })).toBe(false);
  });

  it("sets an HttpOnly sessionid and a readable csrftoken, Secure only over HTTPS", () => {
    expect(sessionCookies(local, "S", "T")).toEqual([
      "sessionid=S; HttpOnly; Path=/; SameSite=Lax; Max-Age=1209600",
      "csrftoken=T; Path=/; SameSite=Lax; Max-Age=1209600",
    ]);
    expect(sessionCookies(behindTls, "S", "T")).toEqual([
      "sessionid=S; HttpOnly; Path=/; SameSite=Lax; Max-Age=1209600; Secure",
      "csrftoken=T; Path=/; SameSite=Lax; Max-Age=1209600; Secure",
    ]);
    expect(clearedSessionCookies(local)).toEqual([
      "sessionid=; HttpOnly; Path=/; SameSite=Lax; Max-Age=0",
      "csrftoken=; Path=/; SameSite=Lax; Max-Age=0",
    ]);
  });

  it("lets a request without Origin or from its own origin through, and refuses another origin with 403 CSRF_FAILED", () => {
    expect(() => checkSameOrigin(local)).not.toThrow();
    expect(() => checkSameOrigin({ ...local, headers: { origin: "http://127.0.0.1:9991" } })).not.toThrow();
    expect(() => checkSameOrigin({ ...behindTls, headers: { ...behindTls.headers, origin: "https://chat.example.com" } })).not.toThrow();
    let refusal: unknown;
    try {
      checkSameOrigin({ ...behindTls, headers: { ...behindTls.headers, origin: "http://chat.example.com" } });
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({
      httpStatus: 403,
      code: "CSRF_FAILED",
      message: "CSRF error: Origin checking failed - http://chat.example.com does not match any trusted origins.",
    });
  });
});
