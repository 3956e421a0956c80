import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import { getSingleMessage } from "../../shared/queries/messages/get-message.js";

/** `GET /messages/{message_id}` (https://zulip.com/api/get-message). */
export const getMessage: Endpoint = async (ctx) => {
  const messageId = pathInt(ctx.pathParams, "message_id");
  const p = parseParams(ctx.params, { apply_markdown: param.bool().default(true) });
  return getSingleMessage(ctx.deps, ctx.realm, ctx.user, messageId, p.apply_markdown);
};
