import { userIdFromFakeEmail } from "../access/user.js";
import type { Deps } from "../deps.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";
import { userByEmail, userById } from "../data/users.js";
import { avatarUrlFor, gravatarUrl, mediumAvatarUrlFor, realmIconUrl, realmLogoUrl } from "../domain/avatar.js";
import { canSeeDeliveryEmail, realmUrl } from "../domain/email.js";

/**
 * Where the image redirects send a client: `GET /avatar/{email_or_id}`
 * (and `/medium`) at the site root, `GET /realm/icon` and `GET /realm/logo`
 * (Zulip's `avatar`, `avatar_medium`, `get_icon_backend` and
 * `get_logo_backend`; routes that Zulip's OpenAPI file does not describe).
 * Each answers the image's URL with the request's query string appended,
 * as Zulip's `append_url_query_string` does.
 */

/**
 * Zulip's `append_url_query_string`: the URL unchanged for an empty query,
 * else with `&<query>` when it already has a query, `?<query>` when not.
 */
function withQuery(url: string, query: string): string {
  if (query === "") return url;
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}

/** A site-relative image path made absolute against the organization's URL (gravatar URLs stay). */
function absolute(deps: Pick<Deps, "config">, realm: RealmRecord, url: string): string {
  return url.startsWith("/") ? `${realmUrl(realm, deps.config)}${url}` : url;
}

/**
 * The user `email_or_id` names for the caller (Zulip's
 * `get_user_by_id_in_realm_including_cross_realm` / `get_user_including_cross_realm`):
 * all digits is a user ID; otherwise an API email — a fake `user<id>@…`
 * address by ID, a real one only when the caller may see that user's
 * address (so the redirect reveals no hidden email). Deactivated users and
 * bots count. At most two reads.
 */
async function avatarUser(deps: Deps, realm: RealmRecord, caller: UserRecord, emailOrId: string): Promise<UserRecord | undefined> {
  if (/^\d{1,15}$/.test(emailOrId)) return userById(deps, realm.id, Number(emailOrId));
  if (/^\d+$/.test(emailOrId)) return undefined;
  const fakeId = userIdFromFakeEmail(emailOrId, realm, deps.config);
  if (fakeId !== undefined) return userById(deps, realm.id, fakeId);
  const found = await userByEmail(deps, realm.id, emailOrId);
  return found && canSeeDeliveryEmail(caller, found, realm) ? found : undefined;
}

/**
 * `GET /avatar/{email_or_id}[/medium]` (Zulip's `avatar` view): the URL of
 * that user's avatar (100 or 500 pixels); for a name that finds no user,
 * the gravatar of the name itself at version 1, as Zulip answers, so the
 * redirect tells nobody whether an account exists.
 * @param emailOrId the path value (at most 254 characters; longer finds no user)
 * @param query the request's query string, appended to the URL
 * @returns an absolute URL for the 302's `Location`
 */
export async function avatarRedirectUrl(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  emailOrId: string,
  medium: boolean,
  query: string,
): Promise<string> {
  const target = emailOrId.length <= 254 ? await avatarUser(deps, realm, caller, emailOrId) : undefined;
  let url: string;
  if (target) url = medium ? mediumAvatarUrlFor(target) : avatarUrlFor(target, { clientGravatar: false, emailVisible: true })!;
  else url = gravatarUrl(emailOrId, 1, medium);
  return withQuery(absolute(deps, realm, url), query);
}

/**
 * `GET /realm/icon` (Zulip's `get_icon_backend`): the organization's icon
 * URL (`realm_icon_url`), for any user of the organization.
 * @returns an absolute URL for the 302's `Location`
 */
export function realmIconRedirectUrl(deps: Pick<Deps, "config">, realm: RealmRecord, query: string): string {
  return withQuery(absolute(deps, realm, realmIconUrl(realm)), query);
}

/**
 * `GET /realm/logo` (Zulip's `get_logo_backend`): the organization's day or
 * `night` logo URL (`realm_logo_url` / `realm_night_logo_url`).
 * @returns an absolute URL for the 302's `Location`
 */
export function realmLogoRedirectUrl(deps: Pick<Deps, "config">, realm: RealmRecord, night: boolean, query: string): string {
  return withQuery(absolute(deps, realm, realmLogoUrl(realm, night, realmUrl(realm, deps.config))), query);
}
