import type { Endpoint } from "../../shared/http/context.js";
import { fetchOwnUser } from "../../shared/queries/users/own-user.js";

/**
 * `GET /users/me` (https://zulip.com/api/get-own-user): the caller's own user object.
 * The endpoint has no parameters: `avatar_url` is always computed.
 */
export const getOwnUser: Endpoint = async (ctx) => fetchOwnUser(ctx.deps, ctx.realm, ctx.user);
