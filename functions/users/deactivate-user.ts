import { z } from "zod";
import { checkDeactivateUser } from "../../shared/actions/users/deactivate-user.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";

/**
 * `DELETE /users/{user_id}` (https://zulip.com/api/deactivate-user). The optional
 * `deactivation_notification_comment` (at most 2000 characters) is checked
 * and accepted; this deployment sends no email, so it has no effect.
 */
export const deactivateUser: Endpoint = async (ctx) => {
  const userId = pathInt(ctx.pathParams, "user_id");
  parseParams(ctx.params, {
    deactivation_notification_comment: param.string(z.string().max(2000)).optional(),
  });
  await checkDeactivateUser(ctx.deps, ctx.realm, ctx.user, userId);
};
