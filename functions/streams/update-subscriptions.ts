import { z } from "zod";
import { checkUpdateSubscriptions } from "../../shared/actions/streams/update-subscriptions.js";
import { isValidStreamColor } from "../../shared/domain/stream-colors.js";
import { JsonableError } from "../../shared/errors.js";
import type { Endpoint } from "../../shared/http/context.js";
import { boundedList, param, parseParams } from "../../shared/http/params.js";
import { descriptionSchema, MAX_SUBSCRIPTIONS_PER_REQUEST } from "./params.js";

/** `PATCH /users/me/subscriptions`: subscribe and unsubscribe in one request (https://zulip.com/api/update-subscriptions). */
export const updateSubscriptions: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    add: param
      .json(
        boundedList(
          "add",
          z.strictObject({ name: z.string(), color: z.string().optional(), description: descriptionSchema.optional() }),
          MAX_SUBSCRIPTIONS_PER_REQUEST,
        ),
      )
      .default([]),
    delete: param.json(boundedList("delete", z.string(), MAX_SUBSCRIPTIONS_PER_REQUEST)).default([]),
  });
  for (const s of p.add) {
    if (s.color !== undefined && !isValidStreamColor(s.color)) throw new JsonableError("add.color is not a valid hex color code");
  }
  return { ...(await checkUpdateSubscriptions(ctx.deps, ctx.realm, ctx.user, p.add, p.delete)) };
};
