import type { Deps } from "../deps.js";
import {
  IncomingWebhookBotRefusedError,
  InvalidApiKeyError,
  MissingArgumentError,
  InvalidSubdomainError,
  JsonableError,
  RealmDeactivatedError,
  UnauthorizedError,
  UserDeactivatedError,
} from "../errors.js";
import { apiKeyOwner, userAndRealm, userById } from "../data/users.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";
import { apiEmail } from "../domain/email.js";
import { BotType } from "../domain/roles.js";
import { hashApiKey } from "./api-key.js";
import { parseBasicAuth } from "./basic.js";

/**
 * Authenticates an API request by HTTP Basic email + API key
 * (https://zulip.com/api/api-keys; Zulip's `authenticated_rest_api_view`
 * and `validate_api_key` in `zerver/decorator.py`). Two round trips: the key's lookup item
 * ({@link apiKeyOwner}), then the user and realm items together
 * ({@link userAndRealm}); a third, only for bots, reads the bot's owner.
 *
 * Every refusal is a 401 `UNAUTHORIZED` carrying the specific message, as
 * Zulip's REST views turn each authentication error into
 * `UnauthorizedError(msg)`.
 *
 * @param authorization the `Authorization` header
 * @param subdomain the request host's organization subdomain
 * @throws UnauthorizedError 401 when no Basic credentials were sent; "Invalid API key" when the
 *   key is unknown or not the email's; "Account is deactivated" for a deactivated user, or a bot
 *   whose owner is deactivated; "This organization has been deactivated"; "Account is not
 *   associated with this subdomain" when the account belongs to another organization's host
 */
export async function authenticateApiRequest(
  deps: Pick<Deps, "db" | "table" | "config">,
  authorization: string | undefined,
  subdomain: string,
): Promise<{ user: UserRecord; realm: RealmRecord }> {
  const credentials = parseBasicAuth(authorization);
  if (!credentials) throw new UnauthorizedError();
  try {
    return await validateApiKey(deps, credentials, subdomain);
  } catch (err) {
    if (err instanceof InvalidApiKeyError) throw new WrongApiKeyError(credentials.username);
    if (err instanceof JsonableError) throw new UnauthorizedError(err.message);
    throw err;
  }
}

/**
 * 401 `UNAUTHORIZED` "Invalid API key" of the REST API: the key matches no
 * user, or not the email sent with it. The claimed email rides along for
 * the failed-authentication limits (`shared/auth/failed-auth.ts`).
 */
export class WrongApiKeyError extends UnauthorizedError {
  constructor(readonly claimedEmail: string) {
    super(new InvalidApiKeyError().message);
  }
}

/**
 * Whether an authentication error says the credentials were wrong (an API
 * key that matches no user or not its email), as opposed to missing
 * credentials or a deactivated account: only those count as failed attempts.
 * @returns the claimed email (undefined for a webhook's bare `api_key`), or false
 */
export function wrongApiKeyClaim(err: unknown): { email: string | undefined } | false {
  if (err instanceof WrongApiKeyError) return { email: err.claimedEmail };
  if (err instanceof InvalidApiKeyError) return { email: undefined };
  return false;
}

/**
 * Zulip's `validate_api_key`: the user an email and API key name, refused
 * with the error classes that say why (the webhook views keep those codes).
 */
async function validateApiKey(
  deps: Pick<Deps, "db" | "table" | "config">,
  credentials: { username: string; password: string },
  subdomain: string,
): Promise<{ user: UserRecord; realm: RealmRecord }> {
  const owner = await apiKeyOwner(deps, hashApiKey(credentials.password));
  if (!owner) throw new InvalidApiKeyError();

  const { user, realm } = await userAndRealm(deps, owner.realm_id, owner.user_id);
  if (!user || !realm) throw new InvalidApiKeyError();

  const email = credentials.username.toLowerCase();
  if (email !== user.delivery_email.toLowerCase() && email !== apiEmail(user, realm, deps.config).toLowerCase()) {
    throw new InvalidApiKeyError();
  }
  return validateAccountAndSubdomain(deps, user, realm, subdomain);
}

/**
 * The checks every authenticated request passes once its key (or session)
 * is known to be the account's (Zulip's `validate_account_and_subdomain`),
 * plus the refusal of a bot whose owner is deactivated.
 * @throws RealmDeactivatedError / UserDeactivatedError / InvalidSubdomainError 401
 */
export async function validateAccountAndSubdomain(
  deps: Pick<Deps, "db" | "table" | "config">,
  user: UserRecord,
  realm: RealmRecord,
  subdomain: string,
): Promise<{ user: UserRecord; realm: RealmRecord }> {
  if (realm.deactivated) throw new RealmDeactivatedError();
  if (!user.is_active) throw new UserDeactivatedError();
  if (realm.string_id !== subdomain) throw new InvalidSubdomainError();
  if (user.is_bot && user.bot_owner_id !== null) {
    // Eventually consistent: a bot's owner is deactivated rarely, and a stale read only delays the refusal.
    const botOwner = await userById(deps, realm.id, user.bot_owner_id, { consistent: false });
    if (botOwner && botOwner.is_active === false) throw new UserDeactivatedError();
  }
  return { user, realm };
}

/**
 * Authenticates an incoming-webhook request (Zulip's `webhook_view`, whose
 * `validate_api_key` allows webhook access): the `api_key` parameter alone
 * names the account; without it, HTTP Basic email + key as on the REST API
 * (Zulip's `authenticated_rest_api_view(webhook_client_name=...)`, for
 * senders that can only do that). Same refusals as {@link authenticateApiRequest}.
 * @param apiKey the `api_key` query (or form) parameter, if sent
 * @throws MissingArgumentError 400 `Missing 'api_key' argument` when neither credential was sent
 * @throws InvalidApiKeyError 401 for an unknown key
 * @throws UserDeactivatedError / RealmDeactivatedError / InvalidSubdomainError 401 as for the API
 */
export async function authenticateWebhookRequest(
  deps: Pick<Deps, "db" | "table" | "config">,
  apiKey: string | undefined,
  authorization: string | undefined,
  subdomain: string,
): Promise<{ user: UserRecord; realm: RealmRecord }> {
  if (apiKey === undefined) {
    if (parseBasicAuth(authorization)) return authenticateApiRequest(deps, authorization, subdomain);
    throw new MissingArgumentError("api_key");
  }
  const owner = await apiKeyOwner(deps, hashApiKey(apiKey));
  if (!owner) throw new InvalidApiKeyError();
  const { user, realm } = await userAndRealm(deps, owner.realm_id, owner.user_id);
  if (!user || !realm) throw new InvalidApiKeyError();
  return validateAccountAndSubdomain(deps, user, realm, subdomain);
}

/**
 * Refuses an incoming-webhook bot (bot type 2) on an API endpoint other
 * than those of `allowed` (Zulip's `validate_api_key` without
 * `allow_webhook_access`).
 * @throws IncomingWebhookBotRefusedError 400 `This API is not available to incoming webhook bots.`
 */
export function checkIncomingWebhookBotAccess(user: UserRecord, endpoint: string, allowed: ReadonlySet<string>): void {
  if (user.is_bot && user.bot_type === BotType.INCOMING_WEBHOOK && !allowed.has(endpoint)) {
    throw new IncomingWebhookBotRefusedError();
  }
}
