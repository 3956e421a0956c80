import { getUserPresence as getUserPresenceAction } from "../../shared/actions/presence/get-user-presence.js";
import type { Endpoint } from "../../shared/http/context.js";

/** `GET /users/{user_id_or_email}/presence` (OpenAPI `get-user-presence`): the path value is an ID or an API email. */
export const getUserPresence: Endpoint = async (ctx) =>
  getUserPresenceAction(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.user_id ?? "");
