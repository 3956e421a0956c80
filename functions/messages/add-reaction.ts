import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import { checkAddReaction } from "../../shared/actions/messages/reactions.js";

/** `POST /messages/{message_id}/reactions` (https://zulip.com/api/add-reaction). */
export const addReaction: Endpoint = async (ctx) => {
  const messageId = pathInt(ctx.pathParams, "message_id");
  const p = parseParams(ctx.params, {
    emoji_name: param.string(),
    emoji_code: param.string().optional(),
    reaction_type: param.string().optional(),
  });
  await checkAddReaction(ctx.deps, ctx.realm, ctx.user, messageId, {
    emojiName: p.emoji_name,
    emojiCode: p.emoji_code,
    reactionType: p.reaction_type,
  });
  return {};
};
