import { z } from "zod";
import type { Endpoint } from "../../shared/http/context.js";
import { boundedList, param, parseParams } from "../../shared/http/params.js";
import { parseNarrow } from "../../shared/narrow/terms.js";
import { MAX_MESSAGES_PER_FETCH } from "../../shared/queries/messages/get-messages.js";
import { fetchNarrowMatches } from "../../shared/queries/messages/matches-narrow.js";

/** `GET /messages/matches_narrow` (https://zulip.com/api/check-messages-match-narrow). */
export const checkMessagesMatchNarrow: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    // Bounded like one `GET /messages` page, so one request reads at most 5,000 messages.
    msg_ids: param.json(boundedList("msg_ids", z.int(), MAX_MESSAGES_PER_FETCH)),
    narrow: param.json(z.unknown()),
  });
  return { messages: await fetchNarrowMatches(ctx.deps, ctx.realm, ctx.user, p.msg_ids, parseNarrow(p.narrow)) };
};
