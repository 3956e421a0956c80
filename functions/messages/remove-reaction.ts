import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import { checkRemoveReaction } from "../../shared/actions/messages/reactions.js";

/** `DELETE /messages/{message_id}/reactions` (https://zulip.com/api/remove-reaction). */
export const removeReaction: Endpoint = async (ctx) => {
  const messageId = pathInt(ctx.pathParams, "message_id");
  const p = parseParams(ctx.params, {
    emoji_name: param.string().optional(),
    emoji_code: param.string().optional(),
    reaction_type: param.string().optional(),
  });
  await checkRemoveReaction(ctx.deps, ctx.realm, ctx.user, messageId, {
    emojiName: p.emoji_name,
    emojiCode: p.emoji_code,
    reactionType: p.reaction_type,
  });
  return {};
};
