import { z } from "zod";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { parseNarrow } from "../../shared/narrow/terms.js";
import { fetchMessages } from "../../shared/queries/messages/get-messages.js";

/** `GET /messages` (https://zulip.com/api/get-messages). */
export const getMessages: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    anchor: param.jsonOrString(z.union([z.string(), z.number()])).optional(),
    include_anchor: param.bool().default(true),
    num_before: param.json(z.int().min(0)),
    num_after: param.json(z.int().min(0)),
    narrow: param.json(z.unknown()).default([]),
    client_gravatar: param.bool().default(true),
    apply_markdown: param.bool().default(true),
    use_first_unread_anchor: param.bool().default(false),
  });
  return fetchMessages(ctx.deps, ctx.realm, ctx.user, {
    anchor: p.anchor,
    useFirstUnreadAnchor: p.use_first_unread_anchor,
    numBefore: p.num_before,
    numAfter: p.num_after,
    includeAnchor: p.include_anchor,
    narrow: parseNarrow(p.narrow),
    applyMarkdown: p.apply_markdown,
    clientGravatar: p.client_gravatar,
  });
};
