import { checkDeactivateBot } from "../../shared/actions/bots/deactivate-bot.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `DELETE /bots/{bot_id}` (Zulip's `deactivate_bot_backend`): deactivates a bot. */
export const deactivateBot: Endpoint = async (ctx) => {
  await checkDeactivateBot(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "bot_id"));
};
