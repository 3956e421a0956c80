import { checkUpdateUserTopic } from "../../shared/actions/user-topics/check-user-topic.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

const SPECS = {
  stream_id: param.int(),
  topic: param.string(),
  visibility_policy: param.int(),
};

/** `POST /user_topics` (https://zulip.com/api/update-user-topic): the caller's policy for one topic. */
export const updateUserTopic: Endpoint = async (ctx) => {
  await checkUpdateUserTopic(ctx.deps, ctx.realm, ctx.user, parseParams(ctx.params, SPECS));
  return {};
};
