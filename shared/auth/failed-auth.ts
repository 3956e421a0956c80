import type { Deps } from "../deps.js";
import { addRateLimitHit, rateLimitCounts, type RateLimitScope } from "../data/rate-limits.js";
import { judgeRateLimit, slidingWindowPlan, type RateLimitRule } from "../domain/rate-limit.js";
import { RateLimitedError } from "../errors.js";

/**
 * Who failed to authenticate: the source address, and the email (username)
 * the credentials claimed in the request's organization, if any.
 * `password` failures are Zulip's `authenticate_by_username` (a password
 * sign-in, `POST /fetch_api_key`); `api_key` failures are wrong API keys
 * (HTTP Basic or a webhook's `api_key`), counted per claimed email apart, so
 * that a script retrying with a revoked key never locks its owner's
 * password sign-in.
 */
export interface AuthAttempt {
  kind: "password" | "api_key";
  sourceIp: string;
  subdomain: string;
  /** The claimed email; absent for a webhook's bare `api_key`. */
  username?: string;
}

interface FailureCounter {
  scope: RateLimitScope;
  subject: string;
  rule: RateLimitRule;
}

function counters(deps: Deps, attempt: AuthAttempt): FailureCounter[] {
  const config = deps.config;
  const out: FailureCounter[] = [
    {
      scope: "authenticate_by_ip",
      subject: attempt.sourceIp,
      rule: { limit: config.RATE_LIMIT_IP_AUTH_FAILURES, windowSeconds: config.RATE_LIMIT_IP_AUTH_WINDOW_SECONDS },
    },
  ];
  if (attempt.username !== undefined) {
    out.push({
      scope: attempt.kind === "password" ? "authenticate_by_username" : "api_key_by_username",
      subject: `${attempt.subdomain}:${attempt.username.toLowerCase()}`,
      rule: { limit: config.RATE_LIMIT_LOGIN_FAILURES, windowSeconds: config.RATE_LIMIT_LOGIN_WINDOW_SECONDS },
    });
  }
  return out;
}

/**
 * Refuses an authentication attempt whose address or claimed email has
 * failed too often in the sliding window (Zulip's
 * `RateLimitedAuthenticationByUsername`, 5 per 30 minutes, and a limit per
 * address, `RATE_LIMIT_IP_AUTH_FAILURES`). One strongly consistent GetItem
 * per counter, in parallel; nothing when limits are off. Reads only, so an
 * address that is refused writes nothing more.
 * @throws RateLimitedError 429 `RATE_LIMIT_HIT` with the seconds until an attempt is allowed again
 */
export async function checkAuthFailureLimits(deps: Deps, attempt: AuthAttempt): Promise<void> {
  if (deps.config.RATE_LIMITS === "off") return;
  const now = deps.clock.now();
  const verdicts = await Promise.all(
    counters(deps, attempt).map(async (c) => {
      try {
        return judgeRateLimit(c.rule, await rateLimitCounts(deps, c.scope, c.subject), now, "uncounted");
      } catch (err) {
        deps.log.warn("rate limit counter failed", { scope: c.scope, error: err instanceof Error ? err.message : String(err) });
        return undefined;
      }
    }),
  );
  const limited = verdicts.filter((v) => v?.limited);
  if (limited.length > 0) throw new RateLimitedError(Math.max(...limited.map((v) => v!.secondsToFreedom)));
}

/**
 * Counts a failed authentication against its address and claimed email:
 * one UpdateItem per counter, in parallel. The counters are keyed by address
 * and by email, never by the wrong key, and expire by TTL, so a stream of
 * wrong keys creates at most the address's item and, until the address is
 * refused ({@link checkAuthFailureLimits}), one item per claimed email.
 */
export async function recordAuthFailure(deps: Deps, attempt: AuthAttempt): Promise<void> {
  if (deps.config.RATE_LIMITS === "off") return;
  const now = deps.clock.now();
  await Promise.all(
    counters(deps, attempt).map(async (c) => {
      try {
        await addRateLimitHit(deps, c.scope, c.subject, slidingWindowPlan(c.rule, now));
      } catch (err) {
        deps.log.warn("rate limit counter failed", { scope: c.scope, error: err instanceof Error ? err.message : String(err) });
      }
    }),
  );
}

/**
 * For a request whose API key was wrong: refuses it with 429 when its
 * address or claimed email is over the failure limit, else counts the
 * failure (the caller then answers with the authentication error).
 * @throws RateLimitedError 429 past the limit
 */
export async function throttleWrongApiKey(deps: Deps, attempt: Omit<AuthAttempt, "kind">): Promise<void> {
  const failure: AuthAttempt = { ...attempt, kind: "api_key" };
  await checkAuthFailureLimits(deps, failure);
  await recordAuthFailure(deps, failure);
}
