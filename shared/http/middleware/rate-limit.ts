import { parseBasicAuth } from "../../auth/basic.js";
import type { Config } from "../../config.js";
import type { Deps } from "../../deps.js";
import { addRateLimitHit, removeRateLimitHit, type SlidingWindowCounts } from "../../data/rate-limits.js";
import { judgeRateLimit, slidingWindowPlan, type SlidingWindowPlan } from "../../domain/rate-limit.js";
import { RateLimitedError } from "../../errors.js";
import { acceptsSessionCookie, type Route } from "../../routes.js";
import { requestCookie } from "../cookies.js";
import { SESSION_COOKIE } from "../session-cookies.js";
import { header } from "../raw-params.js";
import type { ApiMiddleware, ApiRequest, RateLimitTarget } from "./types.js";

/**
 * Which counter a request hits, following Zulip's `rate_limit` in
 * `zerver/decorator.py`: authenticated API calls count per user
 * (`api_by_user`), unauthenticated ones per IP address (`api_by_ip`). The
 * long poll `GET /events` is limited like any call, as Zulip's Tornado does
 * (`RATE_LIMITING_DOMAINS_FOR_TORNADO`). The user is named by the SHA-256 of
 * the API key, which identifies exactly one user, so the counter write needs
 * nothing from the authentication reads and runs alongside them; it adds
 * only to counts that exist, which are created once the key has proved
 * valid, so a wrong key stores nothing (its failure is counted per address
 * and claimed email instead, `shared/auth/failed-auth.ts`).
 *
 * An incoming-webhook request counts against its bot's `api_by_user`, as
 * Zulip's `webhook_view` (the `api_key` parameter) and
 * `authenticated_rest_api_view` with a webhook client (HTTP Basic) call
 * `rate_limit_user(request, user_profile, domain="api_by_user")` once the
 * bot is known: the key of the `api_key` parameter, else of Basic
 * credentials, the order in which `authenticateWebhookRequest` reads them.
 * A request authenticated by its session cookie (a `/json` route, or a
 * site-root file link sent with the cookie alone) hits no counter here:
 * authentication starts its user's once the session item names the user
 * ({@link sessionRateLimitTarget}, {@link startRateLimitOf}).
 * @param apiKeyParam the request's `api_key` parameter (webhook routes read it)
 * @param sessionCookie whether the request carries a `sessionid` cookie
 * @returns undefined when the request hits no counter: limits off, or an
 *   API or webhook call without credentials (refused by authentication)
 */
export function rateLimitTarget(
  config: Config,
  route: Route,
  authorization: string | undefined,
  sourceIp: string,
  apiKeyParam?: string,
  sessionCookie = false,
): RateLimitTarget | undefined {
  if (config.RATE_LIMITS === "off") return undefined;
  const byUser = (apiKey: string | undefined): RateLimitTarget | undefined =>
    apiKey === undefined ? undefined : userTarget(config, apiKey);
  // Authentication starts the counter of a session once the session names its user.
  if (route.auth === "session" || (sessionCookie && authorization === undefined && acceptsSessionCookie(route))) return undefined;
  switch (route.auth) {
    case "api":
      return byUser(parseBasicAuth(authorization)?.password);
    case "webhook":
      return byUser(apiKeyParam ?? parseBasicAuth(authorization)?.password);
    case "optional":
      // A spectator (no credentials) counts by address, as on `none` routes.
      return authorization !== undefined ? byUser(parseBasicAuth(authorization)?.password) : ipRateLimitTarget(config, sourceIp);
    case "none":
      return ipRateLimitTarget(config, sourceIp);
  }
}

function userTarget(config: Config, subject: string): RateLimitTarget {
  return {
    scope: "api_by_user",
    subject,
    rule: { limit: config.RATE_LIMIT_USER_REQUESTS, windowSeconds: config.RATE_LIMIT_USER_WINDOW_SECONDS },
  };
}

/** `api_by_ip`: a request without a user counts against its source address. */
export function ipRateLimitTarget(config: Config, sourceIp: string): RateLimitTarget {
  return {
    scope: "api_by_ip",
    subject: sourceIp,
    rule: { limit: config.RATE_LIMIT_IP_REQUESTS, windowSeconds: config.RATE_LIMIT_IP_WINDOW_SECONDS },
  };
}

/**
 * `api_by_user` of a request authenticated by its session cookie: the
 * counter of the user (realm and user ID: an API key names its user too,
 * but a session holds no key), written once the session item has named
 * the user, alongside the read of the user and realm.
 */
export function sessionRateLimitTarget(config: Config, realmId: number, userId: number): RateLimitTarget {
  return userTarget(config, `user:${realmId}:${userId}`);
}

/**
 * Starts a counter write chosen during authentication (a session's user, or
 * the address of a spectator whose session cookie named no live session),
 * as {@link startRateLimit} does for the others; {@link enforceRateLimit}
 * waits for it. Nothing when limits are off.
 */
export function startRateLimitOf(request: ApiRequest, target: RateLimitTarget): void {
  const deps = request.context.api!.deps;
  if (deps.config.RATE_LIMITS === "off") return;
  const plan = slidingWindowPlan(target.rule, deps.clock.now());
  request.internal.rateLimit = { target, plan, onlyExisting: false, pending: hit(deps, target, plan, false) };
}

async function hit(
  deps: Deps,
  target: RateLimitTarget,
  plan: SlidingWindowPlan,
  onlyExisting: boolean,
): Promise<SlidingWindowCounts | undefined> {
  try {
    return await addRateLimitHit(deps, target.scope, target.subject, plan, { onlyExisting });
  } catch (err) {
    // A counter that cannot be written (throttled, unreachable) must not take
    // the API down with it: the request goes on unlimited and is logged.
    deps.log.warn("rate limit counter failed", { scope: target.scope, error: err instanceof Error ? err.message : String(err) });
    return undefined;
  }
}

/**
 * Starts the request's rate-limit counter write (middy `before`, after
 * `apiContext` and before `authenticate`), without waiting for it: one
 * UpdateItem in parallel with the authentication reads. {@link enforceRateLimit}
 * waits for it. The write and its target live in `request.internal`.
 */
export function startRateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const ctx = request.context.api!;
      const target = rateLimitTarget(
        ctx.deps.config,
        ctx.route,
        header(request.event, "authorization"),
        request.event.requestContext.http.sourceIp,
        ctx.route.auth === "webhook" ? ctx.params.get("api_key") : undefined,
        requestCookie(request.event, SESSION_COOKIE) !== undefined,
      );
      if (!target) return;
      const plan = slidingWindowPlan(target.rule, ctx.deps.clock.now());
      const onlyExisting = target.scope === "api_by_user";
      request.internal.rateLimit = { target, plan, onlyExisting, pending: hit(ctx.deps, target, plan, onlyExisting) };
    },
  };
}

/**
 * Refuses a request over its limit (middy `before`, after `authenticate`, so
 * that an authentication error wins over a limit). A valid API key whose
 * counts did not exist yet (its first request, or the first after a
 * window's idleness) gets them created here, after authentication. A
 * refused request's hit is taken back, as Zulip counts allowed calls only.
 * @throws RateLimitedError 429 `RATE_LIMIT_HIT` with `retry-after` (float seconds)
 */
export function enforceRateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const state = request.internal.rateLimit;
      if (!state) return;
      const deps = request.context.api!.deps;
      let counts = await state.pending;
      if (!counts && state.onlyExisting) counts = await hit(deps, state.target, state.plan, false);
      if (!counts) return;
      const verdict = judgeRateLimit(state.target.rule, counts, deps.clock.now());
      state.verdict = verdict;
      if (verdict.limited) {
        try {
          await removeRateLimitHit(deps, state.target.scope, state.target.subject, state.plan);
        } catch (err) {
          deps.log.warn("rate limit counter failed", { scope: state.target.scope, error: err instanceof Error ? err.message : String(err) });
        }
        throw new RateLimitedError(verdict.secondsToFreedom);
      }
    },
  };
}

/**
 * Zulip's `X-RateLimit-*` headers for a request whose limit was applied
 * (`RateLimitMiddleware.set_response_headers`): the limit, the calls left in
 * the window, and the UNIX second at which every counted call has left the
 * window. Empty when no limit applied.
 */
export function rateLimitHeaders(request: ApiRequest): Record<string, string> {
  const verdict = request.internal.rateLimit?.verdict;
  if (!verdict) return {};
  return {
    "x-ratelimit-limit": String(verdict.limit),
    "x-ratelimit-remaining": String(verdict.remaining),
    "x-ratelimit-reset": String(verdict.resetAt),
  };
}

/**
 * Adds {@link rateLimitHeaders} to the response, success or error (middy
 * `after` and `onError`; registered before `errorEnvelope` so that its
 * `onError` runs after the envelope exists).
 */
export function rateLimitResponseHeaders(): ApiMiddleware {
  const add = async (request: ApiRequest) => {
    if (!request.response) return;
    const extra = rateLimitHeaders(request);
    if (Object.keys(extra).length === 0) return;
    request.response = { ...request.response, headers: { ...(request.response.headers ?? {}), ...extra } };
  };
  return { after: add, onError: add };
}
