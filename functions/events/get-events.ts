import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { createEventQueue, getEvents as getEventsAction } from "../../shared/events/queues.js";
import { parseRegistrationParams, queueOptionsFrom } from "./registration-params.js";

/**
 * `GET /events`: long-polls a queue. Without `queue_id`, registers a queue
 * from the registration parameters first (spec "Get events").
 */
export const getEvents: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    queue_id: param.string().optional(),
    last_event_id: param.int().optional(),
    dont_block: param.bool().default(false),
  });
  let queueId = p.queue_id;
  let lastEventId = p.last_event_id;
  if (queueId === undefined) {
    const reg = parseRegistrationParams(ctx.params, false);
    queueId = (await createEventQueue(ctx.deps, ctx.realm, ctx.user, queueOptionsFrom(reg, ctx.user, ctx.clientName)))
      .queue_id;
    lastEventId = undefined;
  }
  const events = await getEventsAction(ctx.deps, ctx.user, {
    queueId,
    lastEventId,
    dontBlock: p.dont_block,
    holdMs: ctx.deps.config.LONGPOLL_HOLD_MS,
    remainingMs: ctx.remainingTimeMs(),
  });
  return { events, queue_id: queueId };
};
