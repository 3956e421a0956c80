import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { doDeleteEventQueue } from "../../shared/actions/events/delete-queue.js";

/** `DELETE /events` (https://zulip.com/api/delete-queue): deletes one of the caller's event queues. */
export const deleteQueue: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { queue_id: param.string() });
  await doDeleteEventQueue(ctx.deps, ctx.user, p.queue_id);
};
