import { fetchUserScheduledMessages } from "../../shared/queries/scheduled-messages/user-scheduled-messages.js";
import type { Endpoint } from "../../shared/http/context.js";

/** `GET /scheduled_messages` (https://zulip.com/api/get-scheduled-messages): the caller's undelivered scheduled messages, earliest first. */
export const getScheduledMessages: Endpoint = async (ctx) => {
  return { scheduled_messages: await fetchUserScheduledMessages(ctx.deps, ctx.user.user_id) };
};
