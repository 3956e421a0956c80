/**
 * Fixed-window rate-limit arithmetic (Zulip's `zerver/lib/rate_limiter.py`
 * rules `(window_seconds, max_calls)`), free of storage: the data layer
 * counts hits per window, this module says what a count means.
 *
 * A fixed window starts at a multiple of its length since the UNIX epoch, so
 * every server process agrees on the window of a moment without coordination
 * and one counter item per (subject, window) is enough.
 */

/** One rule: at most `limit` hits per `windowSeconds`. */
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/** What a count in a window means for the request that produced it. */
export interface RateLimitVerdict {
  /** true when the request is over the limit and must be refused (429). */
  limited: boolean;
  /** The rule's limit (`X-RateLimit-Limit`). */
  limit: number;
  /** Hits left in the window after this one, never negative (`X-RateLimit-Remaining`). */
  remaining: number;
  /** Seconds (float) until the window ends and hits are allowed again (`retry-after`). */
  secondsToFreedom: number;
  /** UNIX time in whole seconds when the window ends (`X-RateLimit-Reset`). */
  resetAt: number;
}

/**
 * The window containing a moment.
 * @param nowMs milliseconds since the UNIX epoch
 * @returns `start` and `end` in whole seconds since the epoch; `end = start + windowSeconds`
 */
export function fixedWindow(nowMs: number, windowSeconds: number): { start: number; end: number } {
  const start = Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

/**
 * Judges a hit count: the request that made the count `count` is allowed
 * while `count <= limit`.
 * @param count hits in the current window including this request (at least 1)
 * @param nowMs milliseconds since the UNIX epoch
 */
export function judgeRateLimit(rule: RateLimitRule, count: number, nowMs: number): RateLimitVerdict {
  const { end } = fixedWindow(nowMs, rule.windowSeconds);
  return {
    limited: count > rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    secondsToFreedom: Math.max(0, end - nowMs / 1000),
    resetAt: end,
  };
}
