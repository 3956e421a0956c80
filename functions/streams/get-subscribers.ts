import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { fetchStreamSubscriberIds } from "../../shared/queries/streams/get-streams.js";

/** `GET /streams/{stream_id}/members`: the stream's active subscribers. */
export const getSubscribers: Endpoint = async (ctx) => ({
  subscribers: await fetchStreamSubscriberIds(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "stream_id")),
});
