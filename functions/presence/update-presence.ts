import { z } from "zod";
import { doUpdateUserPresence } from "../../shared/actions/presence/update-presence.js";
import { JsonableError } from "../../shared/errors.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { fetchRealmPresence } from "../../shared/queries/register/presence.js";

/**
 * `POST /users/me/presence` (https://zulip.com/api/update-presence): records the
 * caller's status and, unless `ping_only`, returns the organization's
 * presence (modern format with `last_update_id` or `slim_presence`,
 * legacy email-keyed format otherwise).
 */
export const updatePresence: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    status: param.string(),
    ping_only: param.bool().default(false),
    new_user_input: param.bool().default(false),
    slim_presence: param.bool().default(false),
    last_update_id: param.json(z.int()).optional(),
  });
  if (p.status !== "active" && p.status !== "idle") throw new JsonableError(`Invalid status: ${p.status}`);
  await doUpdateUserPresence(ctx.deps, ctx.realm, ctx.user, p.status);
  if (p.ping_only) return {};
  const modern = p.slim_presence || p.last_update_id !== undefined;
  const result = await fetchRealmPresence(ctx.deps, ctx.realm, {
    format: modern ? "modern" : "legacy",
    lastUpdateId: p.last_update_id,
  });
  return { ...result, zephyr_mirror_active: false };
};
