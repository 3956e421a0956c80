import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { doMarkStreamAsRead } from "../../shared/actions/messages/mark-as-read.js";

/** `POST /mark_stream_as_read` (https://zulip.com/api/mark-stream-as-read). */
export const markStreamAsRead: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { stream_id: param.int() });
  await doMarkStreamAsRead(ctx.deps, ctx.realm, ctx.user, p.stream_id);
  return {};
};
