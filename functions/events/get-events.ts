import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { doGetEvents } from "../../shared/actions/events/get-events.js";
import { parseRegistrationParams, queueOptionsFrom } from "./registration-params.js";

/**
 * `GET /events` (https://zulip.com/api/get-events): long-polls a queue.
 * Without `queue_id`, registers a queue from the registration parameters
 * first.
 */
export const getEvents: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    queue_id: param.string().optional(),
    last_event_id: param.int().optional(),
    dont_block: param.bool().default(false),
  });
  const queue =
    p.queue_id !== undefined
      ? { id: p.queue_id, lastEventId: p.last_event_id }
      : { register: queueOptionsFrom(parseRegistrationParams(ctx.params, false), ctx.user, ctx.clientName) };
  return doGetEvents(ctx.deps, ctx.realm, ctx.user, {
    queue,
    dontBlock: p.dont_block,
    holdMs: ctx.deps.config.LONGPOLL_HOLD_MS,
    remainingTimeMs: () => ctx.remainingTimeMs(),
  });
};
