import { renderMessagePreview } from "../../shared/actions/messages/render-message.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** `POST /messages/render` (https://zulip.com/api/render-message): returns `rendered`, the HTML of `content`. */
export const renderMessage: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { content: param.string() });
  return renderMessagePreview(ctx.deps, ctx.realm, p.content);
};
