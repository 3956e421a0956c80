import type { Endpoint } from "../../shared/http/context.js";
import { fetchRealmPresence } from "../../shared/queries/register/presence.js";

/** `GET /realm/presence` (https://zulip.com/api/get-presence): everyone's presence, keyed by API email (legacy format). */
export const getRealmPresence: Endpoint = async (ctx) => {
  const { presences, server_timestamp } = await fetchRealmPresence(ctx.deps, ctx.realm, { format: "legacy" });
  return { presences, server_timestamp };
};
