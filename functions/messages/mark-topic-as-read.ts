import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { doMarkTopicAsRead } from "../../shared/actions/messages/mark-as-read.js";

/** `POST /mark_topic_as_read` (https://zulip.com/api/mark-topic-as-read). */
export const markTopicAsRead: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { stream_id: param.int(), topic_name: param.string() });
  await doMarkTopicAsRead(ctx.deps, ctx.realm, ctx.user, p.stream_id, p.topic_name);
  return {};
};
