import { checkRegenerateBotApiKey } from "../../shared/actions/bots/deactivate-bot.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `POST /bots/{bot_id}/api_key/regenerate` (Zulip's `regenerate_bot_api_key`): answers the bot's new `api_key`. */
export const regenerateBotApiKey: Endpoint = async (ctx) =>
  checkRegenerateBotApiKey(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "bot_id"));
