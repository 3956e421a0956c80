import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { fetchSubscriptionStatus } from "../../shared/queries/streams/get-streams.js";

/** `GET /users/{user_id}/subscriptions/{stream_id}`: whether a user is subscribed to a stream. */
export const getSubscriptionStatus: Endpoint = async (ctx) => ({
  is_subscribed: await fetchSubscriptionStatus(
    ctx.deps,
    ctx.realm,
    ctx.user,
    pathInt(ctx.pathParams, "user_id"),
    pathInt(ctx.pathParams, "stream_id"),
  ),
});
