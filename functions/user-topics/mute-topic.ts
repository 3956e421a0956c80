import { z } from "zod";
import { checkMuteTopic } from "../../shared/actions/user-topics/check-user-topic.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

const SPECS = {
  stream: param.string().optional(),
  stream_id: param.int().optional(),
  topic: param.string(),
  op: param.string(z.enum(["add", "remove"])),
};

/**
 * `PATCH /users/me/subscriptions/muted_topics` (https://zulip.com/api/mute-topic):
 * the legacy way to mute (`op=add`) or unmute (`op=remove`) a topic.
 */
export const muteTopic: Endpoint = async (ctx) => {
  await checkMuteTopic(ctx.deps, ctx.realm, ctx.user, parseParams(ctx.params, SPECS));
  return {};
};
