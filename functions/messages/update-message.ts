import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";

/** `PATCH /messages/{message_id}` (https://zulip.com/api/update-message). */
export const updateMessage: Endpoint = async (ctx) => {
  const messageId = pathInt(ctx.pathParams, "message_id");
  const p = parseParams(ctx.params, {
    content: param.string().optional(),
    topic: param.string().alias("subject").optional(),
    stream_id: param.int().optional(),
    propagate_mode: param.string().default("change_one"),
    send_notification_to_old_thread: param.bool().default(true),
    send_notification_to_new_thread: param.bool().default(true),
  });
  // The edit and move actions are loaded on the first edit: they are most of this Lambda's code that sending never runs.
  const { checkUpdateMessage } = await import("../../shared/actions/messages/edit/check-update-message.js");
  await checkUpdateMessage(ctx.deps, ctx.realm, ctx.user, messageId, {
    content: p.content,
    topic: p.topic,
    streamId: p.stream_id,
    propagateMode: p.propagate_mode,
    notifyOldThread: p.send_notification_to_old_thread,
    notifyNewThread: p.send_notification_to_new_thread,
  });
  return {};
};
