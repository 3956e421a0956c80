import {
  authenticateApiRequest,
  authenticateWebhookRequest,
  checkIncomingWebhookBotAccess,
} from "../../auth/authenticate.js";
import { RouteNotFoundError } from "../../errors.js";
import { INTEGRATION_URL_NAMES } from "../../integrations/names.js";
import { INCOMING_WEBHOOK_BOT_ENDPOINTS } from "../../routes.js";
import { realmBySubdomain } from "../../data/realms.js";
import { header } from "../raw-params.js";
import type { ApiMiddleware } from "./types.js";

/**
 * Authenticates the caller according to the route's `auth` mode (middy
 * `before`, after {@link apiContext}). `api` routes get `user` and `realm`
 * or fail with a 401 (an incoming-webhook bot only where it may go);
 * `webhook` routes authenticate by the `api_key` parameter or HTTP Basic;
 * `none` routes, and `optional` routes without credentials (a spectator),
 * get the realm named by the host, if any, and no user.
 */
export function authenticate(): ApiMiddleware {
  return {
    before: async (request) => {
      const ctx = request.context.api!;
      const authorization = header(request.event, "authorization");
      if (ctx.route.auth === "api" || (ctx.route.auth === "optional" && authorization !== undefined)) {
        const { user, realm } = await authenticateApiRequest(ctx.deps, authorization, ctx.subdomain);
        checkIncomingWebhookBotAccess(user, ctx.route.endpoint, INCOMING_WEBHOOK_BOT_ENDPOINTS);
        ctx.user = user;
        ctx.realm = realm;
        return;
      }
      if (ctx.route.auth === "webhook") {
        // Zulip has one URL per integration, so an unknown name is a 404 whatever the credentials.
        if (!INTEGRATION_URL_NAMES.has(ctx.pathParams.integration_name ?? "")) throw new RouteNotFoundError();
        const { user, realm } = await authenticateWebhookRequest(
          ctx.deps,
          ctx.params.get("api_key"),
          header(request.event, "authorization"),
          ctx.subdomain,
        );
        ctx.user = user;
        ctx.realm = realm;
        return;
      }
      ctx.realm = (await realmBySubdomain(ctx.deps, ctx.subdomain)) ?? null;
    },
  };
}
