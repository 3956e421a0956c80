import { checkFetchApiKey } from "../../shared/actions/users/fetch-api-key.js";
import type { PublicEndpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** `POST /fetch_api_key`: `username` + `password` → `api_key`, `email`, `user_id`. */
export const fetchApiKey: PublicEndpoint = async (ctx) => {
  const p = parseParams(ctx.params, { username: param.string(), password: param.string() });
  return checkFetchApiKey(ctx.deps, ctx.realm, p.username, p.password, { sourceIp: ctx.sourceIp, subdomain: ctx.subdomain });
};
