import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { getOwnUser as getOwnUserQuery } from "../../shared/queries/users/get-own-user.js";

/** `GET /users/me`: the caller's own user object. */
export const getOwnUser: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { client_gravatar: param.bool().default(true) });
  return getOwnUserQuery(ctx.deps, ctx.realm, ctx.user, p.client_gravatar);
};
