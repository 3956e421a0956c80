import { checkDeactivateOwnUser } from "../../shared/actions/users/deactivate-user.js";
import type { Endpoint } from "../../shared/http/context.js";

/** `DELETE /users/me` (https://zulip.com/api/deactivate-own-user): the caller deactivates their own account. */
export const deactivateOwnUser: Endpoint = async (ctx) => {
  await checkDeactivateOwnUser(ctx.deps, ctx.realm, ctx.user);
};
