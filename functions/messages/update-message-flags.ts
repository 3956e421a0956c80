import { z } from "zod";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { doUpdateMessageFlags } from "../../shared/actions/messages/flags.js";

/** `POST /messages/flags` (https://zulip.com/api/update-message-flags). */
export const updateMessageFlags: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    messages: param.json(z.array(z.int())),
    op: param.string(),
    flag: param.string(),
  });
  const messages = await doUpdateMessageFlags(ctx.deps, ctx.realm, ctx.user, p.op, p.flag, p.messages);
  return { messages };
};
