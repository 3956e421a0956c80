import { dummyPasswordHash, hashPassword, passwordHashNeedsUpgrade, verifyPassword } from "../../auth/password.js";
import type { Deps } from "../../deps.js";
import { JsonableError, RealmDeactivatedError, UserDeactivatedError } from "../../errors.js";
import { checkAuthFailureLimits, recordAuthFailure, type AuthAttempt } from "../../auth/failed-auth.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { replacePasswordHash, userByEmail } from "../../data/users.js";
import { apiEmail } from "../../domain/email.js";

/** 401 `AUTHENTICATION_FAILED`: the same answer whether or not the account exists. */
export class AuthenticationFailedError extends JsonableError {
  constructor() {
    super("Your username or password is incorrect", { code: "AUTHENTICATION_FAILED", httpStatus: 401 });
  }
}

/**
 * Checks an email and password the way every password sign-in does (Zulip's
 * `authenticate` with the email backend, as `api_fetch_api_key` and the
 * login form call it). The password check always runs scrypt, against a
 * dummy hash when the account does not exist, so timing does not reveal
 * which emails have accounts. A successful login whose stored hash is
 * weaker than the configured cost stores a new hash of the same password
 * ({@link upgradePasswordHash}).
 * @param from the request's source address and organization subdomain
 * @returns the account and its organization
 * @throws AuthenticationFailedError 401 for an unknown account or wrong password
 * @throws UserDeactivatedError / RealmDeactivatedError 401, only after a correct password
 * @throws RateLimitedError 429 once a username has `RATE_LIMIT_LOGIN_FAILURES` failed attempts
 *   in the sliding window (Zulip's `authenticate_by_username`: 5 per 30 minutes), or the source
 *   address `RATE_LIMIT_IP_AUTH_FAILURES` failed authentications, even with the right password;
 *   only failures count (shared/auth/failed-auth.ts)
 */
export async function checkPasswordLogin(
  deps: Deps,
  realm: RealmRecord | null,
  username: string,
  password: string,
  from: { sourceIp: string; subdomain: string },
): Promise<{ user: UserRecord; realm: RealmRecord }> {
  const attempt: AuthAttempt = { kind: "password", sourceIp: from.sourceIp, subdomain: from.subdomain, username };
  const [user] = await Promise.all([realm ? userByEmail(deps, realm.id, username) : undefined, checkAuthFailureLimits(deps, attempt)]);
  const log2N = deps.config.PASSWORD_HASH_LOG2_N;
  const ok = await verifyPassword(password, user?.password_hash ?? dummyPasswordHash(log2N));
  if (!realm || !user || !user.password_hash || !ok) {
    await recordAuthFailure(deps, attempt);
    throw new AuthenticationFailedError();
  }
  if (realm.deactivated) throw new RealmDeactivatedError();
  if (!user.is_active) throw new UserDeactivatedError();
  await upgradePasswordHash(deps, user, password);
  return { user, realm };
}

/**
 * Exchanges an email and password for the account's API key
 * (`POST /fetch_api_key`, https://zulip.com/api/fetch-api-key; Zulip's
 * `api_fetch_api_key`), with the checks and refusals of {@link checkPasswordLogin}.
 * @returns `{api_key, email, user_id}`
 */
export async function checkFetchApiKey(
  deps: Deps,
  realm: RealmRecord | null,
  username: string,
  password: string,
  from: { sourceIp: string; subdomain: string },
): Promise<{ api_key: string; email: string; user_id: number }> {
  const { user, realm: userRealm } = await checkPasswordLogin(deps, realm, username, password, from);
  return { api_key: user.api_key, email: apiEmail(user, userRealm, deps.config), user_id: user.user_id };
}

/**
 * After a successful login: replaces a stored password hash weaker than the
 * configured cost (`PASSWORD_HASH_LOG2_N`) with a new hash of the password
 * just verified, as Django's `check_password` upgrades a hash through its
 * `setter` when the hasher `must_update` it. One scrypt hash and one
 * conditional UpdateItem, only for such a hash; a password changed
 * meanwhile wins (the update finds another hash and writes nothing).
 */
export async function upgradePasswordHash(deps: Deps, user: UserRecord, password: string): Promise<void> {
  const stored = user.password_hash;
  if (!stored || !passwordHashNeedsUpgrade(stored, deps.config.PASSWORD_HASH_LOG2_N)) return;
  const upgraded = await hashPassword(password, deps.config.PASSWORD_HASH_LOG2_N);
  await replacePasswordHash(deps, user.realm_id, user.user_id, stored, upgraded);
}
