import { z } from "zod";
import { checkUpdateBotWithAvatar } from "../../shared/actions/bots/update-bot.js";
import { ROLE_VALUES } from "../../shared/domain/roles.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { Endpoint } from "../../shared/http/context.js";
import { multipartFiles } from "../../shared/http/multipart.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";

/**
 * `PATCH /bots/{bot_id}` (Zulip's `patch_bot_backend`): name, role, owner,
 * default streams and (one image file in a multipart body) avatar of a bot.
 */
export const updateBot: Endpoint<FilesDeps> = async (ctx) => {
  const botId = pathInt(ctx.pathParams, "bot_id");
  const p = parseParams(ctx.params, {
    full_name: param.string(z.string().max(1000)).optional(),
    role: param.json(z.int().refine((r) => ROLE_VALUES.includes(r), { message: "Invalid role" })).optional(),
    bot_owner_id: param.int().optional(),
    default_sending_stream: param.string(z.string().max(200)).optional(),
    default_events_register_stream: param.string(z.string().max(200)).optional(),
    default_all_public_streams: param.bool().optional(),
  });
  const maxBytes = ctx.deps.config.MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024;
  const upload = await multipartFiles(ctx, { maxFileBytes: maxBytes, maxFiles: 2 });
  return checkUpdateBotWithAvatar(ctx.deps, ctx.realm, ctx.user, botId, p, upload, maxBytes);
};
