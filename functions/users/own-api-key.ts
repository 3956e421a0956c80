import { checkFetchOwnApiKey, checkRegenerateOwnApiKey } from "../../shared/actions/users/own-api-key.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** `POST /json/fetch_api_key` (Zulip's `json_fetch_api_key`): `password` → the caller's `api_key` and `email`. */
export const jsonFetchApiKey: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { password: param.string().optional() });
  return checkFetchOwnApiKey(ctx.deps, ctx.realm, ctx.user, p.password ?? "", { sourceIp: ctx.sourceIp, subdomain: ctx.subdomain });
};

/** `POST /users/me/api_key/regenerate` (Zulip's `regenerate_api_key`): answers the caller's new `api_key`. */
export const regenerateApiKey: Endpoint = async (ctx) => checkRegenerateOwnApiKey(ctx.deps, ctx.realm, ctx.user);
