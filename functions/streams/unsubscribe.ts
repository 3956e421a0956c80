import { z } from "zod";
import { checkUnsubscribe } from "../../shared/actions/streams/unsubscribe.js";
import type { Endpoint } from "../../shared/http/context.js";
import { boundedList, param, parseParams } from "../../shared/http/params.js";
import { MAX_SUBSCRIPTIONS_PER_REQUEST, principalsParam } from "./params.js";

/** `DELETE /users/me/subscriptions`: unsubscribe oneself or others (https://zulip.com/api/unsubscribe). */
export const unsubscribe: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    subscriptions: param.json(boundedList("subscriptions", z.string(), MAX_SUBSCRIPTIONS_PER_REQUEST)),
    principals: principalsParam(),
  });
  return { ...(await checkUnsubscribe(ctx.deps, ctx.realm, ctx.user, p.subscriptions, p.principals)) };
};
