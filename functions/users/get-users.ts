import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { fetchUsers } from "../../shared/queries/users/users.js";

/** `GET /users` (https://zulip.com/api/get-users): `members`, every user and bot of the organization. */
export const getUsers: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    client_gravatar: param.bool().default(true),
    include_custom_profile_fields: param.bool().default(false),
  });
  return fetchUsers(ctx.deps, ctx.realm, ctx.user, {
    clientGravatar: p.client_gravatar,
    includeCustomProfileFields: p.include_custom_profile_fields,
  });
};
