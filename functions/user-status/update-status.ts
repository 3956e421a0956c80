import { doUpdateUserStatus } from "../../shared/actions/users/update-status.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** `POST /users/me/status` (https://zulip.com/api/update-status): changes the passed parts of the caller's status. */
export const updateStatus: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    status_text: param.string().optional(),
    away: param.bool().optional(),
    emoji_name: param.string().optional(),
    emoji_code: param.string().optional(),
    reaction_type: param.string().optional(),
  });
  await doUpdateUserStatus(ctx.deps, ctx.realm, ctx.user, {
    statusText: p.status_text,
    away: p.away,
    emojiName: p.emoji_name,
    emojiCode: p.emoji_code,
    reactionType: p.reaction_type,
  });
  return {};
};
