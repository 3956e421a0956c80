import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { RedirectResult } from "../../shared/http/response.js";
import { avatarRedirectUrl, realmIconRedirectUrl, realmLogoRedirectUrl } from "../../shared/queries/avatar-redirects.js";

/** The request's query string as received (Zulip appends it to the redirect). */
function queryOf(ctx: Parameters<Endpoint>[0]): string {
  return new URLSearchParams([...ctx.query]).toString();
}

/** `GET /avatar/{email_or_id}` at the site root (Zulip's `avatar`): a 302 to the user's avatar. */
export const getAvatarRedirect: Endpoint = async (ctx) =>
  new RedirectResult(await avatarRedirectUrl(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.email_or_id ?? "", false, queryOf(ctx)));

/** `GET /avatar/{email_or_id}/medium` at the site root (Zulip's `avatar_medium`): a 302 to the 500-pixel avatar. */
export const getMediumAvatarRedirect: Endpoint = async (ctx) =>
  new RedirectResult(await avatarRedirectUrl(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.email_or_id ?? "", true, queryOf(ctx)));

/** `GET /realm/icon` (Zulip's `get_icon_backend`; not in the OpenAPI file): a 302 to the organization's icon. */
export const getRealmIconRedirect: Endpoint = async (ctx) => new RedirectResult(realmIconRedirectUrl(ctx.deps, ctx.realm, queryOf(ctx)));

/** `GET /realm/logo` (Zulip's `get_logo_backend`): a 302 to the day or `night` logo (`night` required, JSON boolean). */
export const getRealmLogoRedirect: Endpoint = async (ctx) => {
  const { night } = parseParams(ctx.params, { night: param.bool() });
  return new RedirectResult(realmLogoRedirectUrl(ctx.deps, ctx.realm, night, queryOf(ctx)));
};
