import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/**
 * `POST /submessage` (https://zulip.com/api/send-submessage): a poll vote, a
 * new option or task, a strike, … The action and the widget checks are
 * loaded on the first such request, out of the messages Lambda's cold start.
 */
export const processSubmessage: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    message_id: param.int(),
    msg_type: param.string(),
    content: param.string(),
  });
  const { checkProcessSubmessage } = await import("../../shared/actions/messages/submessages.js");
  await checkProcessSubmessage(ctx.deps, ctx.realm, ctx.user, { messageId: p.message_id, msgType: p.msg_type, content: p.content });
  return {};
};
