import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { fetchStreams } from "../../shared/queries/streams/get-streams.js";

/** `GET /streams`: streams the caller may see, filtered by source (https://zulip.com/api/get-streams). */
export const getStreams: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    include_public: param.bool().default(true),
    include_web_public: param.bool().default(false),
    include_subscribed: param.bool().default(true),
    include_all_active: param.bool().default(false),
    include_default: param.bool().default(false),
    include_owner_subscribed: param.bool().default(false),
  });
  return { streams: await fetchStreams(ctx.deps, ctx.realm, ctx.user, p) };
};
