import {
  authenticateApiRequest,
  authenticateWebhookRequest,
  checkIncomingWebhookBotAccess,
  wrongApiKeyClaim,
} from "../../auth/authenticate.js";
import { throttleWrongApiKey } from "../../auth/failed-auth.js";
import { RouteNotFoundError } from "../../errors.js";
import { INTEGRATION_URL_NAMES } from "../../integrations/names.js";
import { INCOMING_WEBHOOK_BOT_ENDPOINTS } from "../../routes.js";
import { realmBySubdomain } from "../../data/realms.js";
import { header } from "../raw-params.js";
import type { ApiMiddleware, ApiRequest } from "./types.js";

/**
 * Authenticates the caller according to the route's `auth` mode (middy
 * `before`, after {@link apiContext}). `api` routes get `user` and `realm`
 * or fail with a 401 (an incoming-webhook bot only where it may go);
 * `webhook` routes authenticate by the `api_key` parameter or HTTP Basic;
 * `none` routes, and `optional` routes without credentials (a spectator),
 * get the realm named by the host, if any, and no user.
 *
 * A wrong API key counts as a failed authentication of the source address
 * and of the email it claimed (`shared/auth/failed-auth.ts`); past their
 * limit it is answered 429 instead of 401, whatever header carried it.
 * @throws RateLimitedError 429 for a wrong key from an address or for an email over the failure limit
 */
export function authenticate(): ApiMiddleware {
  return {
    before: async (request) => {
      try {
        await authenticateRequest(request);
      } catch (err) {
        const claim = wrongApiKeyClaim(err);
        if (claim) {
          const ctx = request.context.api!;
          await throttleWrongApiKey(ctx.deps, {
            sourceIp: request.event.requestContext.http.sourceIp,
            subdomain: ctx.subdomain,
            username: claim.email,
          });
        }
        throw err;
      }
    },
  };
}

/** The authentication of {@link authenticate}, by the route's `auth` mode. */
async function authenticateRequest(request: ApiRequest): Promise<void> {
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
}
