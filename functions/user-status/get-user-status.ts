import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { fetchUserStatus } from "../../shared/queries/users/user-status.js";

/** `GET /users/{user_id}/status` (https://zulip.com/api/get-user-status): a user's status, `{}` when none is set. */
export const getUserStatus: Endpoint = async (ctx) =>
  fetchUserStatus(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "user_id"));
