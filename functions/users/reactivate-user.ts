import { checkReactivateUser } from "../../shared/actions/users/reactivate-user.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `POST /users/{user_id}/reactivate` (https://zulip.com/api/reactivate-user): administrators reactivate an account. */
export const reactivateUser: Endpoint = async (ctx) => {
  await checkReactivateUser(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "user_id"));
};
