import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { checkProcessSubmessage } from "../../shared/actions/messages/submessages.js";

/** `POST /submessage` (https://zulip.com/api/send-submessage): a poll vote, a new option or task, a strike, … */
export const processSubmessage: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    message_id: param.int(),
    msg_type: param.string(),
    content: param.string(),
  });
  await checkProcessSubmessage(ctx.deps, ctx.realm, ctx.user, { messageId: p.message_id, msgType: p.msg_type, content: p.content });
  return {};
};
