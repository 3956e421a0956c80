import type { Endpoint } from "../../shared/http/context.js";
import { fetchUserPresence } from "../../shared/queries/presence/user-presence.js";

/** `GET /users/{user_id_or_email}/presence` (https://zulip.com/api/get-user-presence): the path value is an ID or an API email. */
export const getUserPresence: Endpoint = async (ctx) =>
  fetchUserPresence(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.user_id ?? "");
