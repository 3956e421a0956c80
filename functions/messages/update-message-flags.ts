import { z } from "zod";
import type { Endpoint } from "../../shared/http/context.js";
import { boundedList, param, parseParams } from "../../shared/http/params.js";
import { doUpdateMessageFlags } from "../../shared/actions/messages/flags.js";
import { MAX_MESSAGES_PER_UPDATE } from "../../shared/actions/messages/flags-narrow.js";

/** `POST /messages/flags` (https://zulip.com/api/update-message-flags). */
export const updateMessageFlags: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    // Zulip's own bound for one flag update (`MAX_MESSAGES_PER_UPDATE`, applied to flags/narrow),
    // applied here too so a list of IDs cannot cost unbounded reads and writes.
    messages: param.json(boundedList("messages", z.int(), MAX_MESSAGES_PER_UPDATE)),
    op: param.string(),
    flag: param.string(),
  });
  const messages = await doUpdateMessageFlags(ctx.deps, ctx.realm, ctx.user, p.op, p.flag, p.messages);
  return { messages };
};
