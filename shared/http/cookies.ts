/**
 * The value of a request cookie. API Gateway's payload 2.0 moves the
 * `Cookie` header out of `headers` into `cookies`, one `name=value` per
 * entry (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html);
 * an entry holding several pairs (`a=1; b=2`) is split too. The first pair
 * of a name wins, as browsers send the most specific cookie first
 * (RFC 6265 §5.4). A value in double quotes is unquoted.
 * @returns the value, or undefined when the request has no such cookie
 */
export function requestCookie(event: { cookies?: readonly string[] }, name: string): string | undefined {
  for (const entry of event.cookies ?? []) {
    for (const pair of entry.split(";")) {
      const eq = pair.indexOf("=");
      if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
      const value = pair.slice(eq + 1).trim();
      return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
    }
  }
  return undefined;
}

/** The attributes {@link setCookie} writes (RFC 6265 §4.1). */
export interface CookieAttributes {
  /** Seconds until the browser drops the cookie; 0 deletes it. Absent: a cookie for the browser's session. */
  maxAge?: number;
  /** Hidden from page scripts (`document.cookie`). */
  httpOnly?: boolean;
  /** Sent only over HTTPS. */
  secure?: boolean;
  sameSite?: "Lax" | "Strict" | "None";
  /** @default "/" */
  path?: string;
}

/** A value a cookie may hold unquoted (RFC 6265 §4.1.1 `cookie-octet`). */
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

/**
 * One `Set-Cookie` header value, attributes in the order Django writes
 * them, e.g. `sessionid=abc; HttpOnly; Path=/; SameSite=Lax; Max-Age=1209600; Secure`.
 * @throws Error for a value a cookie cannot hold (a programming error: our values are base64url)
 */
export function setCookie(name: string, value: string, attributes: CookieAttributes): string {
  if (!COOKIE_VALUE.test(value)) throw new Error(`cookie ${name}: value is not a cookie-octet string`);
  const parts = [`${name}=${value}`];
  if (attributes.httpOnly) parts.push("HttpOnly");
  parts.push(`Path=${attributes.path ?? "/"}`);
  if (attributes.sameSite) parts.push(`SameSite=${attributes.sameSite}`);
  if (attributes.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(attributes.maxAge))}`);
  if (attributes.secure) parts.push("Secure");
  return parts.join("; ");
}
