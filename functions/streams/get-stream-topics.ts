import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { fetchTopicHistoryForStream } from "../../shared/queries/streams/topics.js";

/** `GET /users/me/{stream_id}/topics`: the stream's topics, newest first. */
export const getStreamTopics: Endpoint = async (ctx) => ({
  topics: await fetchTopicHistoryForStream(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "stream_id")),
});
