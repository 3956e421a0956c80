import { encodeParams, parseBody, sendRequest, type ApiResponse } from "./api-client.js";

/**
 * A browser's side of the web app's sessions for end-to-end tests: the
 * login form's POST, the cookies it sets, and `/json` calls carrying the
 * `sessionid` cookie and the `X-CSRFToken` header as the web app sends them.
 */
export interface WebSession {
  /** The `sessionid` cookie's value. */
  sessionId: string;
  /** The `csrftoken` cookie's value. */
  csrfToken: string;
}

/** The response of `POST /accounts/login` or `/accounts/logout`, with each `Set-Cookie` value. */
export interface LoginResponse extends ApiResponse {
  setCookies: string[];
  /** The session the cookies name, when both were set with a value. */
  session: WebSession | undefined;
}

function cookieValue(setCookies: string[], name: string): string | undefined {
  const found = setCookies.find((c) => c.startsWith(`${name}=`));
  return found?.slice(name.length + 1).split(";")[0];
}

/**
 * POSTs to `/accounts/<action>` (`login` or `logout`), form-encoded unless
 * `json` is set.
 * @param headers extra request headers (`origin`, `cookie`, `x-csrftoken`, ...)
 */
export async function postAccounts(
  baseUrl: string,
  action: "login" | "logout",
  params: Record<string, string>,
  headers: Record<string, string> = {},
  json = false,
): Promise<LoginResponse> {
  const res = await fetch(`${baseUrl}/accounts/${action}`, {
    method: "POST",
    headers: { "content-type": json ? "application/json" : "application/x-www-form-urlencoded", ...headers },
    body: json ? JSON.stringify(params) : encodeParams(params).toString(),
  });
  const setCookies = res.headers.getSetCookie();
  const sessionId = cookieValue(setCookies, "sessionid");
  const csrfToken = cookieValue(setCookies, "csrftoken");
  const session = sessionId && csrfToken ? { sessionId, csrfToken } : undefined;
  return { status: res.status, headers: res.headers, body: await parseBody(res), setCookies, session };
}

/** Logs in with the login form and returns the session; throws when the login fails. */
export async function webLogin(baseUrl: string, email: string, password: string): Promise<WebSession> {
  const res = await postAccounts(baseUrl, "login", { username: email, password });
  if (res.status !== 200 || !res.session) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.session;
}

/**
 * Calls `/json<path>` as the web app does: the session cookie, and the
 * `X-CSRFToken` header unless `csrf` is false (or another token is given).
 * @param session null sends no cookie
 */
export async function jsonCall(
  baseUrl: string,
  session: WebSession | null,
  method: string,
  path: string,
  params: Record<string, unknown> = {},
  options: { csrf?: boolean | string; prefix?: string } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (session) headers.cookie = `sessionid=${session.sessionId}; csrftoken=${session.csrfToken}`;
  const csrf = options.csrf ?? true;
  if (session && csrf !== false) headers["x-csrftoken"] = csrf === true ? session.csrfToken : csrf;
  return sendRequest(`${baseUrl}${options.prefix ?? "/json"}${path}`, method, params, headers, "manual");
}
