import { z } from "zod";
import { checkSendMessage } from "../../shared/actions/messages/send-message.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** `POST /messages` (https://zulip.com/api/send-message): returns the new message's `id`. */
export const sendMessage: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    type: param.string(),
    // A stream name or ID, or recipients: JSON when it parses, else the raw string.
    to: param.jsonOrString(z.unknown()),
    content: param.string(),
    topic: param.string().alias("subject").optional(),
    queue_id: param.string().optional(),
    local_id: param.string().optional(),
    read_by_sender: param.bool().optional(),
  });
  return checkSendMessage(ctx.deps, ctx.realm, ctx.user, {
    type: p.type,
    to: p.to,
    topic: p.topic,
    content: p.content,
    queueId: p.queue_id,
    localId: p.local_id,
    readBySender: p.read_by_sender,
    clientName: ctx.clientName,
  });
};
