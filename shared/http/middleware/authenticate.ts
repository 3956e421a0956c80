import {
  authenticateApiRequest,
  authenticateWebhookRequest,
  checkIncomingWebhookBotAccess,
  wrongApiKeyClaim,
} from "../../auth/authenticate.js";
import { throttleWrongApiKey } from "../../auth/failed-auth.js";
import { checkCsrfToken, liveSession, sessionAccount } from "../../auth/session.js";
import { RouteNotFoundError, UnauthorizedError } from "../../errors.js";
import { INTEGRATION_URL_NAMES } from "../../integrations/names.js";
import { acceptsSessionCookie, INCOMING_WEBHOOK_BOT_ENDPOINTS } from "../../routing.js";
import { requestCookie } from "../cookies.js";
import { CSRF_HEADER, SESSION_COOKIE } from "../session-cookies.js";
import { ipRateLimitTarget, sessionRateLimitTarget, startRateLimitOf } from "./rate-limit.js";
import { realmBySubdomain } from "../../data/realms.js";
import { header } from "../raw-params.js";
import type { ApiMiddleware, ApiRequest } from "./types.js";

/**
 * Authenticates the caller according to the route's `auth` mode (middy
 * `before`, after {@link apiContext}). `api` routes get `user` and `realm`
 * or fail with a 401 (an incoming-webhook bot only where it may go);
 * `session` routes (`/json/...`) authenticate by the session cookie and
 * the CSRF header, and the site-root `api` and `optional` routes by the
 * cookie alone when no `Authorization` header is sent;
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
  const sessionId = requestCookie(request.event, SESSION_COOKIE);
  if (ctx.route.auth === "session") {
    await authenticateSession(request, sessionId, { csrf: true });
    return;
  }
  if (authorization === undefined && sessionId !== undefined && acceptsSessionCookie(ctx.route)) {
    // An `<img>` of a message sends the cookie alone.
    if (await authenticateSession(request, sessionId, { csrf: false, spectator: ctx.route.auth === "optional" })) return;
    // A stale cookie on an `optional` route: a spectator (below), counted by address as one without a cookie.
    startRateLimitOf(request, ipRateLimitTarget(ctx.deps.config, request.event.requestContext.http.sourceIp));
  }
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

/**
 * Authenticates by the `sessionid` cookie (Zulip's `authenticated_json_view`):
 * the session item (one GetItem), then the user and realm with the checks
 * of API-key authentication, while the user's rate-limit counter is
 * written; with `csrf`, the `X-CSRFToken` header must be the session's
 * token, whatever the method. Sets `user` and `realm` exactly as API-key
 * authentication does, so an endpoint cannot tell the two apart.
 * @param options.spectator answer false instead of 401 for no live session
 * @returns true once authenticated; false for no live session with `spectator`
 * @throws UnauthorizedError 401 `Not logged in: API authentication or user session required`
 *   (`WWW-Authenticate: Session`) for no cookie, an unknown or an expired session; the account
 *   refusals of {@link sessionAccount}
 * @throws CsrfFailedError 403 `CSRF_FAILED` for a missing or wrong `X-CSRFToken`
 */
async function authenticateSession(
  request: ApiRequest,
  sessionId: string | undefined,
  options: { csrf: boolean; spectator?: boolean },
): Promise<boolean> {
  const ctx = request.context.api!;
  const session = await liveSession(ctx.deps, sessionId);
  if (!session) {
    if (options.spectator) return false;
    throw new UnauthorizedError(undefined, "session");
  }
  if (options.csrf) checkCsrfToken(session, header(request.event, CSRF_HEADER));
  startRateLimitOf(request, sessionRateLimitTarget(ctx.deps.config, session.realm_id, session.user_id));
  const { user, realm } = await sessionAccount(ctx.deps, session, ctx.subdomain);
  checkIncomingWebhookBotAccess(user, ctx.route.endpoint, INCOMING_WEBHOOK_BOT_ENDPOINTS);
  ctx.user = user;
  ctx.realm = realm;
  return true;
}
