import { doMuteUser, doUnmuteUser } from "../../shared/actions/muted-users/muted-users.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `POST /users/me/muted_users/{muted_user_id}` (https://zulip.com/api/mute-user). */
export const muteUser: Endpoint = async (ctx) => {
  await doMuteUser(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "muted_user_id"));
  return {};
};

/** `DELETE /users/me/muted_users/{muted_user_id}` (https://zulip.com/api/unmute-user). */
export const unmuteUser: Endpoint = async (ctx) => {
  await doUnmuteUser(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "muted_user_id"));
  return {};
};
