import { checkArchiveStream } from "../../shared/actions/streams/archive-stream.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `DELETE /streams/{stream_id}`: archive a stream. */
export const archiveStream: Endpoint = async (ctx) => {
  await checkArchiveStream(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "stream_id"));
};
