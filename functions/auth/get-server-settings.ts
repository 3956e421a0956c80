import type { PublicEndpoint } from "../../shared/http/context.js";
import { fetchServerSettings } from "../../shared/queries/server-settings.js";
import { pushNotificationsConfigured } from "../../shared/push/bouncer.js";

/** `GET /server_settings` (https://zulip.com/api/get-server-settings): no credentials; the realm comes from the host. */
export const getServerSettings: PublicEndpoint = async (ctx) =>
  fetchServerSettings(ctx.realm, ctx.deps.config, pushNotificationsConfigured(ctx.deps.config));
