import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { markTopicAsRead as markTopic } from "../../shared/actions/messages/mark-as-read.js";

/** `POST /mark_topic_as_read` (spec "Mark as read"; OpenAPI `mark-topic-as-read`). */
export const markTopicAsRead: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { stream_id: param.int(), topic_name: param.string() });
  await markTopic(ctx.deps, ctx.realm, ctx.user, p.stream_id, p.topic_name);
  return {};
};
