import { DUMMY_PASSWORD_HASH, verifyPassword } from "../../auth/password.js";
import type { Deps } from "../../deps.js";
import { JsonableError, RealmDeactivatedError, UserDeactivatedError } from "../../errors.js";
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
 */
export async function checkFetchApiKey(
  deps: Deps,
  realm: RealmRecord | null,
  username: string,
  password: string,
): Promise<{ api_key: string; email: string; user_id: number }> {
  const user = realm ? await userByEmail(deps, realm.id, username) : undefined;
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!realm || !user || !user.password_hash || !ok) throw new AuthenticationFailedError();
  if (realm.deactivated) throw new RealmDeactivatedError();
  if (!user.is_active) throw new UserDeactivatedError();
  return { api_key: user.api_key, email: apiEmail(user, realm, deps.config), user_id: user.user_id };
}
