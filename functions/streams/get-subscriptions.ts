import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { gatherSubscriptions } from "../../shared/queries/streams/gather-subscriptions.js";

/** `GET /users/me/subscriptions`: the caller's subscriptions, with subscribers on request. */
export const getSubscriptions: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { include_subscribers: param.bool().default(false) });
  return {
    subscriptions: await gatherSubscriptions(ctx.deps, ctx.realm, ctx.user, { includeSubscribers: p.include_subscribers }),
  };
};
