import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { checkDeleteMessage } from "../../shared/actions/messages/delete-messages.js";

/** `DELETE /messages/{message_id}` (https://zulip.com/api/delete-message). */
export const deleteMessage: Endpoint = async (ctx) => {
  await checkDeleteMessage(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "message_id"));
  return {};
};
