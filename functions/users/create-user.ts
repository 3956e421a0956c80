import { requireRealmAdmin } from "../../shared/access/user.js";
import { checkCreateUserByAdmin } from "../../shared/actions/users/create-user.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** `POST /users` (https://zulip.com/api/create-user): administrators create an account; returns `user_id`. */
export const createUser: Endpoint = async (ctx) => {
  // Zulip's @require_realm_admin runs before the parameters are looked at.
  requireRealmAdmin(ctx.user);
  const p = parseParams(ctx.params, {
    email: param.string(),
    password: param.string(),
    full_name: param.string(),
  });
  return checkCreateUserByAdmin(ctx.deps, ctx.realm, ctx.user, p);
};
