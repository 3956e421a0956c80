import { z } from "zod";
import { checkUpdateSubscriptionProperties } from "../../shared/actions/streams/subscription-properties.js";
import type { Endpoint } from "../../shared/http/context.js";
import { boundedList, param, parseParams } from "../../shared/http/params.js";
import { MAX_SUBSCRIPTIONS_PER_REQUEST } from "./params.js";

/** `POST`/`PATCH /users/me/subscriptions/properties`: personal settings of subscribed streams. */
export const updateSubscriptionProperties: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    subscription_data: param.json(
      boundedList(
        "subscription_data",
        z.object({ stream_id: z.int(), property: z.string(), value: z.union([z.boolean(), z.string()]) }),
        MAX_SUBSCRIPTIONS_PER_REQUEST,
      ),
    ),
  });
  await checkUpdateSubscriptionProperties(ctx.deps, ctx.realm, ctx.user, p.subscription_data);
};
