import type { PublicEndpoint } from "../../shared/http/context.js";
import { fetchServerSettings } from "../../shared/queries/server-settings.js";

/** `GET /server_settings`: no credentials; the realm comes from the host. */
export const getServerSettingsEndpoint: PublicEndpoint = async (ctx) => fetchServerSettings(ctx.realm, ctx.deps.config);
