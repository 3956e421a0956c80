import { z } from "zod";
import { checkCreateBot } from "../../shared/actions/bots/create-bot.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { Endpoint } from "../../shared/http/context.js";
import { multipartFiles } from "../../shared/http/multipart.js";
import { param, parseParams } from "../../shared/http/params.js";

/**
 * `POST /bots` (Zulip's `add_bot_backend`): creates a bot owned by the
 * caller; answers its ID, key, avatar and defaults. A multipart body may
 * carry one avatar image (any field name; at most `MAX_FILE_UPLOAD_SIZE_MIB`).
 */
export const createBot: Endpoint<FilesDeps> = async (ctx) => {
  const p = parseParams(ctx.params, {
    full_name: param.string(z.string().max(1000)),
    short_name: param.string(z.string().max(200)),
    bot_type: param.int().optional(),
    default_sending_stream: param.string(z.string().max(200)).optional(),
    default_events_register_stream: param.string(z.string().max(200)).optional(),
    default_all_public_streams: param.bool().optional(),
  });
  const maxBytes = ctx.deps.config.MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024;
  const upload = await multipartFiles(ctx, { maxFileBytes: maxBytes, maxFiles: 2 });
  return checkCreateBot(ctx.deps, ctx.realm, ctx.user, p, upload, maxBytes);
};
