import { z } from "zod";
import { doEditScheduledMessage } from "../../shared/actions/scheduled-messages/scheduled-messages.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";

/** `PATCH /scheduled_messages/{scheduled_message_id}` (https://zulip.com/api/update-scheduled-message): changes the given fields. */
export const updateScheduledMessage: Endpoint = async (ctx) => {
  const id = pathInt(ctx.pathParams, "scheduled_message_id");
  const p = parseParams(ctx.params, {
    type: param.string().optional(),
    to: param.jsonOrString(z.unknown()).optional(),
    topic: param.string().alias("subject").optional(),
    content: param.string().optional(),
    scheduled_delivery_timestamp: param.int().optional(),
  });
  await doEditScheduledMessage(ctx.deps, ctx.realm, ctx.user, id, {
    type: p.type,
    to: p.to,
    topic: p.topic,
    content: p.content,
    scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
    clientName: ctx.clientName,
  });
  return {};
};
