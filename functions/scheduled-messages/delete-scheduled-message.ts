import { doDeleteScheduledMessage } from "../../shared/actions/scheduled-messages/scheduled-messages.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `DELETE /scheduled_messages/{scheduled_message_id}` (https://zulip.com/api/delete-scheduled-message): cancels one of the caller's scheduled messages. */
export const deleteScheduledMessage: Endpoint = async (ctx) => {
  await doDeleteScheduledMessage(ctx.deps, ctx.user, pathInt(ctx.pathParams, "scheduled_message_id"));
  return {};
};
