import { DUMMY_PASSWORD_HASH, verifyPassword } from "../../auth/password.js";
import type { Deps } from "../../deps.js";
import { JsonableError, RateLimitedError, RealmDeactivatedError, UserDeactivatedError } from "../../errors.js";
import { addRateLimitHits, rateLimitHits } from "../../data/rate-limits.js";
import { fixedWindow } from "../../domain/rate-limit.js";
import type { RealmRecord } from "../../data/records/realm.js";

import { userByEmail } from "../../data/users.js";
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
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!realm || !user || !user.password_hash || !ok) {
    if (limits) {
      await addRateLimitHits(deps, "authenticate_by_username", limits.subject, limits.window.start, deps.config.RATE_LIMIT_LOGIN_WINDOW_SECONDS);
    }
    throw new AuthenticationFailedError();
  }
  if (realm.deactivated) throw new RealmDeactivatedError();
  if (!user.is_active) throw new UserDeactivatedError();
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
