import { z } from "zod";
import { checkScheduleMessage } from "../../shared/actions/scheduled-messages/scheduled-messages.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** `POST /scheduled_messages` (https://zulip.com/api/create-scheduled-message): answers the new `scheduled_message_id`. */
export const createScheduledMessage: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    type: param.string(),
    // A channel ID or a list of user IDs; JSON when it parses, else the raw string (refused by the action).
    to: param.jsonOrString(z.unknown()),
    topic: param.string().alias("subject").optional(),
    content: param.string(),
    scheduled_delivery_timestamp: param.int(),
    read_by_sender: param.bool().optional(),
  });
  const id = await checkScheduleMessage(ctx.deps, ctx.realm, ctx.user, {
    type: p.type,
    to: p.to,
    topic: p.topic,
    content: p.content,
    scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
    readBySender: p.read_by_sender,
    clientName: ctx.clientName,
  });
  return { scheduled_message_id: id };
};
