import type { Deps } from "../../deps.js";
import { HumanUsersOnlyError, JsonableError } from "../../errors.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { apiEmail } from "../../domain/email.js";
import { AuthenticationFailedError, checkPasswordLogin } from "./fetch-api-key.js";
import { doRegenerateApiKey } from "./regenerate-api-key.js";

/**
 * `POST /json/fetch_api_key` (Zulip's `json_fetch_api_key`, what its web
 * app's "Manage your API key" calls): the signed-in person confirms their
 * password and gets their own API key. The password is checked as a sign-in
 * checks it (scrypt, and the failed-login limits of {@link checkPasswordLogin}:
 * a wrong password counts toward them).
 * @returns `{api_key, email}`
 * @throws JsonableError 400 `Password is incorrect.` for a wrong password
 * @throws RateLimitedError 429 once the failed-login limits are reached
 */
export async function checkFetchOwnApiKey(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  password: string,
  from: { sourceIp: string; subdomain: string },
): Promise<{ api_key: string; email: string }> {
  try {
    const { user } = await checkPasswordLogin(deps, realm, caller.delivery_email, password, from);
    return { api_key: user.api_key, email: apiEmail(user, realm, deps.config) };
  } catch (err) {
    if (err instanceof AuthenticationFailedError) throw new JsonableError("Password is incorrect.");
    throw err;
  }
}

/**
 * `POST /users/me/api_key/regenerate` (Zulip's `regenerate_api_key`): the
 * caller gets a new API key and the old one stops working at once
 * ({@link doRegenerateApiKey}). A web session is not an API key, so the page
 * that asked keeps working.
 * @returns `{api_key}`, the new key
 * @throws HumanUsersOnlyError 400 for a bot (a bot's owner regenerates it through `/bots/{bot_id}/api_key/regenerate`)
 */
export async function checkRegenerateOwnApiKey(deps: Deps, realm: RealmRecord, caller: UserRecord): Promise<{ api_key: string }> {
  if (caller.is_bot) throw new HumanUsersOnlyError();
  return { api_key: await doRegenerateApiKey(deps, realm, caller) };
}
