import { ApiError, encodeParams, parseResponse, readCookie } from "./client.js";

/** The signed-in person, as `POST /accounts/login` answers. */
export interface LoginResult {
  user_id: number;
  email: string;
}

/**
 * Signs in with email and password: the server sets the HttpOnly `sessionid`
 * cookie and the `csrftoken` cookie. Zulip's web login, as a JSON call.
 * @throws ApiError with the server's message (wrong password, deactivated account or organization, rate limit)
 */
export async function logIn(username: string, password: string, fetchImpl: typeof fetch = fetch): Promise<LoginResult> {
  let res: Response;
  try {
    res = await fetchImpl("/accounts/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: encodeParams({ username, password }),
      credentials: "same-origin",
    });
  } catch (e) {
    throw new ApiError(0, "NETWORK", e instanceof Error ? e.message : String(e));
  }
  return parseResponse<LoginResult>(res);
}

/**
 * Ends the session (the server deletes it and clears both cookies). The
 * server takes the logout only with the session's CSRF token in
 * `X-CSRFToken`, as every session-authenticated POST.
 */
export async function logOut(fetchImpl: typeof fetch = fetch, cookies: () => string = () => document.cookie): Promise<void> {
  await fetchImpl("/accounts/logout", {
    method: "POST",
    headers: { "X-CSRFToken": readCookie(cookies(), "csrftoken") ?? "" },
    credentials: "same-origin",
  }).catch(() => undefined);
}
