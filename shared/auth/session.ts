import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Deps } from "../deps.js";
import { CsrfFailedError, JsonableError, UnauthorizedError } from "../errors.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { SessionRecord } from "../data/records/session.js";
import type { UserRecord } from "../data/records/user.js";
import { deleteSessionItem, putNewSession, sessionByHash } from "../data/sessions.js";
import { userAndRealm } from "../data/users.js";
import { validateAccountAndSubdomain } from "./authenticate.js";

/**
 * How long a login lasts: Django's `SESSION_COOKIE_AGE` default of two
 * weeks, which Zulip keeps (1,209,600 seconds). The cookie's `Max-Age` and
 * the item's TTL both come from it.
 */
export const SESSION_COOKIE_AGE_SECONDS = 14 * 24 * 60 * 60;

/** 256 random bits, base64url (43 characters): a session id or a CSRF token. */
function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * SHA-256 (hex) of a session id: the key of the session's item, so that a
 * read of the table (an export, a backup, a console) never yields a cookie
 * that logs anyone in.
 */
export function hashSessionId(sessionId: string): string {
  return createHash("sha256").update(sessionId, "utf8").digest("hex");
}

/**
 * Starts a browser session for a user whose password was just verified
 * (Django's `login`): a new random id (never one the client offered, so a
 * planted cookie cannot be logged in), a new CSRF token, one PutItem.
 * @returns the `sessionid` cookie value (shown once, stored only hashed), the CSRF token and the record
 */
export async function createSession(
  deps: Pick<Deps, "db" | "table" | "clock">,
  user: Pick<UserRecord, "realm_id" | "user_id">,
): Promise<{ sessionId: string; session: SessionRecord }> {
  const sessionId = randomToken();
  const now = Math.floor(deps.clock.now() / 1000);
  const session: SessionRecord = {
    realm_id: user.realm_id,
    user_id: user.user_id,
    csrf_token: randomToken(),
    created_at: now,
    expires_at: now + SESSION_COOKIE_AGE_SECONDS,
  };
  await putNewSession(deps, hashSessionId(sessionId), session);
  return { sessionId, session };
}

/** Ends a session (Django's `logout`): one DeleteItem; nothing happens for an unknown id. */
export async function deleteSession(deps: Pick<Deps, "db" | "table">, sessionId: string): Promise<void> {
  await deleteSessionItem(deps, hashSessionId(sessionId));
}

/**
 * The live session a `sessionid` cookie names: one strongly consistent
 * GetItem of the hashed id. An item past its `expires_at` counts as gone,
 * since DynamoDB's TTL deletes items only some time after they expire.
 * @param sessionId the cookie's value; undefined when the request has none
 * @returns the session, or undefined for no cookie, an unknown id or an expired session
 */
export async function liveSession(
  deps: Pick<Deps, "db" | "table" | "clock">,
  sessionId: string | undefined,
): Promise<SessionRecord | undefined> {
  if (!sessionId) return undefined;
  const session = await sessionByHash(deps, hashSessionId(sessionId));
  if (!session || session.expires_at * 1000 <= deps.clock.now()) return undefined;
  return session;
}

/**
 * The account of a live session, with the checks of API-key authentication
 * (Zulip's `validate_account_and_subdomain`): one strongly consistent
 * BatchGetItem of the user and realm. Refusals are 401 `UNAUTHORIZED`
 * carrying the specific message, with `WWW-Authenticate: Session`, as
 * Zulip's JSON views answer.
 * @throws UnauthorizedError 401 "Account is deactivated", "This organization has been
 *   deactivated", "Account is not associated with this subdomain"; the default message when
 *   the user or realm no longer exists
 */
export async function sessionAccount(
  deps: Pick<Deps, "db" | "table" | "config">,
  session: SessionRecord,
  subdomain: string,
): Promise<{ user: UserRecord; realm: RealmRecord }> {
  const { user, realm } = await userAndRealm(deps, session.realm_id, session.user_id);
  if (!user || !realm) throw new UnauthorizedError(undefined, "session");
  try {
    return await validateAccountAndSubdomain(deps, user, realm, subdomain);
  } catch (err) {
    if (err instanceof JsonableError) throw new UnauthorizedError(err.message, "session");
    throw err;
  }
}

/**
 * The double-submit check of a session request (Django's
 * `CsrfViewMiddleware` as Zulip configures it, `CSRF_HEADER_NAME`
 * `X-CSRFToken`): the header must equal the session's token. Compared in
 * constant time.
 * @param header the `X-CSRFToken` header, if sent
 * @throws CsrfFailedError 403 `CSRF error: CSRF token missing.` / `CSRF error: CSRF token incorrect.`
 */
export function checkCsrfToken(session: SessionRecord, header: string | undefined): void {
  if (!header) throw new CsrfFailedError("CSRF token missing.");
  const sent = Buffer.from(header, "utf8");
  const expected = Buffer.from(session.csrf_token, "utf8");
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
    throw new CsrfFailedError("CSRF token incorrect.");
  }
}
