import { dummyPasswordHash, hashPassword, passwordHashNeedsUpgrade, verifyPassword } from "../../auth/password.js";
import type { Deps } from "../../deps.js";
import { JsonableError, RateLimitedError, RealmDeactivatedError, UserDeactivatedError } from "../../errors.js";
import { addRateLimitHits, rateLimitHits } from "../../data/rate-limits.js";
import { fixedWindow } from "../../domain/rate-limit.js";
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
 * Exchanges an email and password for the account's API key
 * (`POST /fetch_api_key`, https://zulip.com/api/fetch-api-key; Zulip's
 * `api_fetch_api_key`). The password check always runs scrypt, against a
 * dummy hash when the account does not exist, so timing does not reveal
 * which emails have accounts.
 * @returns `{api_key, email, user_id}`
 * @throws AuthenticationFailedError 401 for an unknown account or wrong password
 * @throws UserDeactivatedError / RealmDeactivatedError 401, only after a correct password
 *
 * A successful login whose stored hash is weaker than the configured cost
 * stores a new hash of the same password ({@link upgradePasswordHash}).
 * @throws RateLimitedError 429 once a username has `RATE_LIMIT_LOGIN_FAILURES` failed attempts
 *   in the current window (Zulip's `authenticate_by_username`: 5 per 30 minutes), even with the
 *   right password; only failures count
 */
export async function checkFetchApiKey(
  deps: Deps,
  realm: RealmRecord | null,
  username: string,
  password: string,
): Promise<{ api_key: string; email: string; user_id: number }> {
  const limits = loginLimit(deps, realm, username);
  const [user, failures] = await Promise.all([
    realm ? userByEmail(deps, realm.id, username) : undefined,
    limits ? rateLimitHits(deps, "authenticate_by_username", limits.subject, limits.window.start) : 0,
  ]);
  if (limits && failures >= deps.config.RATE_LIMIT_LOGIN_FAILURES) {
    throw new RateLimitedError(Math.max(0, limits.window.end - deps.clock.now() / 1000));
  }
  const log2N = deps.config.PASSWORD_HASH_LOG2_N;
  const ok = await verifyPassword(password, user?.password_hash ?? dummyPasswordHash(log2N));
  if (!realm || !user || !user.password_hash || !ok) {
    if (limits) {
      await addRateLimitHits(deps, "authenticate_by_username", limits.subject, limits.window.start, deps.config.RATE_LIMIT_LOGIN_WINDOW_SECONDS);
    }
    throw new AuthenticationFailedError();
  }
  if (realm.deactivated) throw new RealmDeactivatedError();
  if (!user.is_active) throw new UserDeactivatedError();
  await upgradePasswordHash(deps, user, password);
  return { api_key: user.api_key, email: apiEmail(user, realm, deps.config), user_id: user.user_id };
}

/** The failed-login counter of a username in its organization, or undefined when limits are off. */
function loginLimit(deps: Deps, realm: RealmRecord | null, username: string) {
  if (deps.config.RATE_LIMITS === "off") return undefined;
  return {
    subject: `${realm?.id ?? 0}:${username.toLowerCase()}`,
    window: fixedWindow(deps.clock.now(), deps.config.RATE_LIMIT_LOGIN_WINDOW_SECONDS),
  };
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
