import type { PublicEndpoint } from "../../shared/http/context.js";
import { fetchServerSettings } from "../../shared/queries/server-settings.js";

/** `GET /server_settings` (https://zulip.com/api/get-server-settings): no credentials; the realm comes from the host. */
export const getServerSettings: PublicEndpoint = async (ctx) =>
  fetchServerSettings(ctx.realm, ctx.deps.config, ctx.deps.pushBouncer !== undefined);
