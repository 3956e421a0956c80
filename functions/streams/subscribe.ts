import { z } from "zod";
import { checkSubscribe } from "../../shared/actions/streams/subscribe.js";
import { isValidStreamColor } from "../../shared/domain/stream-colors.js";
import { JsonableError } from "../../shared/errors.js";
import type { Endpoint } from "../../shared/http/context.js";
import { boundedList, param, parseParams } from "../../shared/http/params.js";
import {
  descriptionSchema,
  MAX_SUBSCRIPTIONS_PER_REQUEST,
  postPolicySchema,
  principalsParam,
  retentionParam,
} from "./params.js";

/** `POST /users/me/subscriptions`: subscribe to (and maybe create) streams. */
export const subscribe: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    subscriptions: param.json(
      boundedList(
        "subscriptions",
        z.object({ name: z.string(), description: descriptionSchema.optional(), color: z.string().optional() }),
        MAX_SUBSCRIPTIONS_PER_REQUEST,
      ),
    ),
    principals: principalsParam(),
    authorization_errors_fatal: param.bool().default(true),
    announce: param.bool().default(false),
    invite_only: param.bool().default(false),
    is_web_public: param.bool().default(false),
    is_default_stream: param.bool().default(false),
    history_public_to_subscribers: param.bool().optional(),
    stream_post_policy: param.json(postPolicySchema).default(1),
    message_retention_days: retentionParam().default("realm_default"),
  });
  p.subscriptions.forEach((s, i) => {
    if (s.color !== undefined && !isValidStreamColor(s.color)) {
      throw new JsonableError(`subscriptions[${i}]["color"] is not a valid hex color code`);
    }
  });
  return { ...(await checkSubscribe(ctx.deps, ctx.realm, ctx.user, {
    subscriptions: p.subscriptions,
    principals: p.principals,
    authorizationErrorsFatal: p.authorization_errors_fatal,
    announce: p.announce,
    inviteOnly: p.invite_only,
    isWebPublic: p.is_web_public,
    isDefaultStream: p.is_default_stream,
    historyPublicToSubscribers: p.history_public_to_subscribers,
    streamPostPolicy: p.stream_post_policy,
    messageRetentionDays: p.message_retention_days,
  })) };
};
