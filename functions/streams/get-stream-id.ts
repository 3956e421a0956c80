import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { fetchStreamIdByName } from "../../shared/queries/streams/get-streams.js";

/** `GET /get_stream_id?stream=<name>`: a stream's ID by name. */
export const getStreamId: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { stream: param.string() });
  return { stream_id: await fetchStreamIdByName(ctx.deps, ctx.realm, ctx.user, p.stream) };
};
