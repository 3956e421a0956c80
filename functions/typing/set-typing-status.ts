import { z } from "zod";
import { checkSendTypingNotification } from "../../shared/actions/typing/send-typing-notification.js";
import { JsonableError } from "../../shared/errors.js";
import type { Endpoint } from "../../shared/http/context.js";
import { boundedList, param, parseParams } from "../../shared/http/params.js";

/** Zulip's `type` values; `private` is the pre-feature-level-174 name of `direct`, `channel` the newer name of `stream`. */
const TYPES: Record<string, "direct" | "stream"> = { direct: "direct", private: "direct", stream: "stream", channel: "stream" };

/**
 * Most participants a direct-message typing notification may name: each is
 * read (one BatchGet per 100) and sent an event, and a conversation's key
 * cannot hold more users than this anyway.
 */
const MAX_TYPING_RECIPIENTS = 1000;

/** `POST /typing` (https://zulip.com/api/set-typing-status): tells the other participants the caller started or stopped typing. */
export const setTypingStatus: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    type: param.string().default("direct"),
    op: param.string(),
    to: param.json(boundedList("to", z.int(), MAX_TYPING_RECIPIENTS)).optional(),
    stream_id: param.int().optional(),
    topic: param.string().optional(),
  });
  const type = TYPES[p.type];
  if (!type) throw new JsonableError("Invalid type");
  if (p.op !== "start" && p.op !== "stop") throw new JsonableError("Invalid op");
  await checkSendTypingNotification(ctx.deps, ctx.realm, ctx.user, {
    op: p.op,
    type,
    to: p.to,
    stream_id: p.stream_id,
    topic: p.topic,
  });
};
