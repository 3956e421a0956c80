import type { PublicEndpoint } from "../../shared/http/context.js";
import { getServerSettings } from "../../shared/queries/server-settings.js";

/** `GET /server_settings`: no credentials; the realm comes from the host. */
export const getServerSettingsEndpoint: PublicEndpoint = async (ctx) => getServerSettings(ctx.realm, ctx.deps.config);
