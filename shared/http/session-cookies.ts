import { SESSION_COOKIE_AGE_SECONDS } from "../auth/session.js";
import { CsrfFailedError } from "../errors.js";
import type { ApiContext } from "./context.js";
import { setCookie } from "./cookies.js";

/** Django's cookie names, which Zulip's web app uses. */
export const SESSION_COOKIE = "sessionid";
export const CSRF_COOKIE = "csrftoken";
/** Django's `CSRF_HEADER_NAME` (`HTTP_X_CSRFTOKEN`), lower-cased as payload 2.0 gives headers. */
export const CSRF_HEADER = "x-csrftoken";

/**
 * Whether the request reached us over HTTPS: `X-Forwarded-Proto: https`
 * (API Gateway sets it on every request it relays, and so does a TLS proxy
 * in front of `npm start`), or a Host on API Gateway's own domain, which
 * answers HTTPS only. The local server on `http://127.0.0.1` is neither.
 */
export function isSecureRequest(ctx: Pick<ApiContext, "headers" | "host">): boolean {
  const proto = headerOf(ctx.headers, "x-forwarded-proto");
  if (proto !== undefined) return proto.split(",")[0]!.trim().toLowerCase() === "https";
  return /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(\.cn)?(:\d+)?$/.test(ctx.host);
}

function headerOf(headers: Record<string, string | undefined>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** The request's own origin, `https://acme.chat.example.com` or `http://127.0.0.1:9991`. */
export function requestOrigin(ctx: Pick<ApiContext, "headers" | "host">): string {
  return `${isSecureRequest(ctx) ? "https" : "http"}://${ctx.host}`;
}

/**
 * Refuses a request whose `Origin` header names another origin (Django's
 * `CsrfViewMiddleware` origin check, which guards Zulip's login form
 * against login CSRF: a foreign page logging the visitor into the
 * attacker's account). A request without `Origin` (curl, an old browser)
 * passes; `SameSite=Lax` keeps the session cookie off foreign posts anyway.
 * @throws CsrfFailedError 403 `CSRF error: Origin checking failed - <origin> does not match any trusted origins.`
 */
export function checkSameOrigin(ctx: Pick<ApiContext, "headers" | "host">): void {
  const origin = headerOf(ctx.headers, "origin");
  if (origin === undefined) return;
  if (origin.toLowerCase() !== requestOrigin(ctx).toLowerCase()) {
    throw new CsrfFailedError(`Origin checking failed - ${origin} does not match any trusted origins.`);
  }
}

/**
 * The two `Set-Cookie` values of a login: the HttpOnly `sessionid` (page
 * scripts never see it) and the script-readable `csrftoken` the web app
 * echoes in `X-CSRFToken`; both `SameSite=Lax`, `Secure` over HTTPS, and
 * both live as long as the session, so a browser never holds a session
 * without its token.
 */
export function sessionCookies(ctx: Pick<ApiContext, "headers" | "host">, sessionId: string, csrfToken: string): string[] {
  const secure = isSecureRequest(ctx);
  return [
    setCookie(SESSION_COOKIE, sessionId, { httpOnly: true, sameSite: "Lax", maxAge: SESSION_COOKIE_AGE_SECONDS, secure }),
    setCookie(CSRF_COOKIE, csrfToken, { sameSite: "Lax", maxAge: SESSION_COOKIE_AGE_SECONDS, secure }),
  ];
}

/** The `Set-Cookie` values of a logout: both cookies emptied with `Max-Age=0`, which deletes them. */
export function clearedSessionCookies(ctx: Pick<ApiContext, "headers" | "host">): string[] {
  const secure = isSecureRequest(ctx);
  return [
    setCookie(SESSION_COOKIE, "", { httpOnly: true, sameSite: "Lax", maxAge: 0, secure }),
    setCookie(CSRF_COOKIE, "", { sameSite: "Lax", maxAge: 0, secure }),
  ];
}
