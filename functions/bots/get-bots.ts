import { fetchOwnBots } from "../../shared/queries/users/bots.js";
import type { Endpoint } from "../../shared/http/context.js";

/** `GET /bots` (Zulip's `get_bots_backend`): the caller's own active bots. */
export const getBots: Endpoint = async (ctx) => fetchOwnBots(ctx.deps, ctx.realm, ctx.user);
