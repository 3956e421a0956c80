import { z } from "zod";
import { checkUnsubscribe } from "../../shared/actions/streams/unsubscribe.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { principalsParam } from "./params.js";

/** `DELETE /users/me/subscriptions`: unsubscribe oneself or others (https://zulip.com/api/unsubscribe). */
export const unsubscribe: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    subscriptions: param.json(z.array(z.string())),
    principals: principalsParam(),
  });
  return { ...(await checkUnsubscribe(ctx.deps, ctx.realm, ctx.user, p.subscriptions, p.principals)) };
};
