import { checkCsrfToken, createSession, deleteSession, liveSession } from "../../auth/session.js";
import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import { apiEmail } from "../../domain/email.js";
import { checkPasswordLogin } from "./fetch-api-key.js";

/**
 * The web app's password login (`POST /accounts/login`; Zulip's
 * `login_page` with the email backend): the checks, refusals and
 * failed-attempt limits of `POST /fetch_api_key` ({@link checkPasswordLogin}),
 * then a new session (one PutItem). A session the browser still held is
 * ended first, as Django's `login` replaces the session key.
 * @param previousSessionId the request's `sessionid` cookie, if any
 * @returns the new session's cookie value and CSRF token, and the account's `user_id` and API `email`
 * @throws AuthenticationFailedError 401 / UserDeactivatedError 401 / RealmDeactivatedError 401 /
 *   RateLimitedError 429, as `POST /fetch_api_key`
 */
export async function checkWebLogin(
  deps: Deps,
  realm: RealmRecord | null,
  username: string,
  password: string,
  from: { sourceIp: string; subdomain: string },
  previousSessionId: string | undefined,
): Promise<{ sessionId: string; csrfToken: string; user_id: number; email: string }> {
  const { user, realm: userRealm } = await checkPasswordLogin(deps, realm, username, password, from);
  const [{ sessionId, session }] = await Promise.all([
    createSession(deps, user),
    previousSessionId ? deleteSession(deps, previousSessionId) : undefined,
  ]);
  return { sessionId, csrfToken: session.csrf_token, user_id: user.user_id, email: apiEmail(user, userRealm, deps.config) };
}

/**
 * The web app's logout (`POST /accounts/logout`; Zulip's `logout_view`):
 * deletes the session the cookie names. A live session must come with its
 * `X-CSRFToken`, so a foreign page cannot end it; without one (no cookie,
 * an unknown or expired session) there is nothing to end, and the answer is
 * the same success, so a repeated logout is harmless. One GetItem and one
 * DeleteItem.
 * @param csrfHeader the request's `X-CSRFToken`
 * @throws CsrfFailedError 403 for a live session without its token
 */
export async function checkWebLogout(deps: Deps, sessionId: string | undefined, csrfHeader: string | undefined): Promise<void> {
  const session = await liveSession(deps, sessionId);
  if (!session || !sessionId) return;
  checkCsrfToken(session, csrfHeader);
  await deleteSession(deps, sessionId);
}
