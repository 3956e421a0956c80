import { z } from "zod";
import { checkUpdateBot } from "../../shared/actions/bots/update-bot.js";
import { ROLE_VALUES } from "../../shared/domain/roles.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";

/** `PATCH /bots/{bot_id}` (Zulip's `patch_bot_backend`): name, role, owner and default streams of a bot. */
export const updateBot: Endpoint = async (ctx) => {
  const botId = pathInt(ctx.pathParams, "bot_id");
  const p = parseParams(ctx.params, {
    full_name: param.string(z.string().max(1000)).optional(),
    role: param.json(z.int().refine((r) => ROLE_VALUES.includes(r), { message: "Invalid role" })).optional(),
    bot_owner_id: param.int().optional(),
    default_sending_stream: param.string(z.string().max(200)).optional(),
    default_events_register_stream: param.string(z.string().max(200)).optional(),
    default_all_public_streams: param.bool().optional(),
  });
  return checkUpdateBot(ctx.deps, ctx.realm, ctx.user, botId, p);
};
