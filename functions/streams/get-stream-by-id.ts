import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { fetchStreamById } from "../../shared/queries/streams/get-streams.js";

/** `GET /streams/{stream_id}`: one stream. */
export const getStreamById: Endpoint = async (ctx) => ({
  stream: await fetchStreamById(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "stream_id")),
});
