import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { deleteEventQueue } from "../../shared/events/queues.js";

/** `DELETE /events`: deletes one of the caller's event queues. */
export const deleteQueue: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { queue_id: param.string() });
  await deleteEventQueue(ctx.deps, ctx.user, p.queue_id);
};
