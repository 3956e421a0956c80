import { z } from "zod";
import { checkCreateBot } from "../../shared/actions/bots/create-bot.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** `POST /bots` (Zulip's `add_bot_backend`): creates a bot owned by the caller; answers its ID, key and defaults. */
export const createBot: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    full_name: param.string(z.string().max(1000)),
    short_name: param.string(z.string().max(200)),
    bot_type: param.int().optional(),
    default_sending_stream: param.string(z.string().max(200)).optional(),
    default_events_register_stream: param.string(z.string().max(200)).optional(),
    default_all_public_streams: param.bool().optional(),
  });
  return checkCreateBot(ctx.deps, ctx.realm, ctx.user, p);
};
