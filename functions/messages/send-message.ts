import { z } from "zod";
import { MAX_LOCAL_ECHO_ID_LENGTH } from "../../shared/actions/messages/notify-message.js";
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
    // Bounded here, before anything is written (see MAX_LOCAL_ECHO_ID_LENGTH).
    queue_id: param.string(z.string().max(MAX_LOCAL_ECHO_ID_LENGTH)).optional(),
    local_id: param.string(z.string().max(MAX_LOCAL_ECHO_ID_LENGTH)).optional(),
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
