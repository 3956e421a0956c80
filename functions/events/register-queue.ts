import type { Endpoint } from "../../shared/http/context.js";
import { doEventsRegister } from "../../shared/actions/events/register-queue.js";
import { parseRegistrationParams, queueOptionsFrom } from "./registration-params.js";

/** `POST /register`: creates an event queue and returns it with the requested initial state. */
export const registerQueue: Endpoint = async (ctx) => {
  const p = parseRegistrationParams(ctx.params, true);
  const options = queueOptionsFrom(p, ctx.user, ctx.clientName);
  return doEventsRegister(ctx.deps, ctx.realm, ctx.user, options, {
    fetchEventTypes: p.fetch_event_types ?? p.event_types ?? null,
    includeSubscribers: p.include_subscribers,
  });
};
