import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { fetchStreamEmailAddress } from "../../shared/actions/streams/stream-email.js";

/** `GET /streams/{stream_id}/email_address` (https://zulip.com/api/get-stream-email-address). */
export const getStreamEmailAddress: Endpoint = async (ctx) =>
  fetchStreamEmailAddress(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "stream_id"));
