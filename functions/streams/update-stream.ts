import { checkUpdateStream } from "../../shared/actions/streams/update-stream.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import { descriptionSchema, postPolicySchema, retentionParam } from "./params.js";

/** `PATCH /streams/{stream_id}`: change a stream's settings (https://zulip.com/api/update-stream). */
export const updateStream: Endpoint = async (ctx) => {
  const streamId = pathInt(ctx.pathParams, "stream_id");
  const p = parseParams(ctx.params, {
    description: param.string(descriptionSchema).optional(),
    new_name: param.string().optional(),
    is_private: param.bool().optional(),
    is_web_public: param.bool().optional(),
    history_public_to_subscribers: param.bool().optional(),
    is_default_stream: param.bool().optional(),
    stream_post_policy: param.json(postPolicySchema).optional(),
    message_retention_days: retentionParam().optional(),
    is_announcement_only: param.bool().optional(),
  });
  await checkUpdateStream(ctx.deps, ctx.realm, ctx.user, streamId, p);
};
