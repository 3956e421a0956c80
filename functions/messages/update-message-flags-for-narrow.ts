import { z } from "zod";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { doUpdateMessageFlagsForNarrow } from "../../shared/actions/messages/flags-narrow.js";
import { parseNarrow } from "../../shared/narrow/terms.js";

/** `POST /messages/flags/narrow` (https://zulip.com/api/update-message-flags-for-narrow). */
export const updateMessageFlagsForNarrow: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    anchor: param.jsonOrString(z.union([z.string(), z.number()])),
    include_anchor: param.bool().default(true),
    num_before: param.json(z.int().min(0)),
    num_after: param.json(z.int().min(0)),
    narrow: param.json(z.unknown()),
    op: param.string(),
    flag: param.string(),
  });
  return doUpdateMessageFlagsForNarrow(ctx.deps, ctx.realm, ctx.user, {
    anchor: p.anchor,
    includeAnchor: p.include_anchor,
    numBefore: p.num_before,
    numAfter: p.num_after,
    narrow: parseNarrow(p.narrow),
    op: p.op,
    flag: p.flag,
  });
};
