import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { fetchUser } from "../../shared/queries/users/users.js";

/**
 * `GET /users/{user_id}` and `GET /users/{email}` (https://zulip.com/api/get-user,
 * https://zulip.com/api/get-user-by-email): one route whose path value is a
 * user ID or an email.
 */
export const getUser: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    client_gravatar: param.bool().default(true),
    include_custom_profile_fields: param.bool().default(false),
  });
  return fetchUser(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.user_id ?? "", {
    clientGravatar: p.client_gravatar,
    includeCustomProfileFields: p.include_custom_profile_fields,
  });
};
