/**
 * Sliding-window rate-limit arithmetic (Zulip's `zerver/lib/rate_limiter.py`
 * rules `(window_seconds, max_calls)`, which Zulip counts in a sliding
 * window), free of storage: the data layer stores hits per sub-window, this
 * module says where a hit goes and what the counts mean.
 *
 * A window of W seconds is cut into {@link SUB_WINDOWS} sub-windows of
 * W / {@link SUB_WINDOWS} seconds, aligned to the UNIX epoch so that every
 * server process agrees on them. A request is judged on the hits of its own
 * sub-window and the {@link SUB_WINDOWS} before it: a span that covers
 * every W-second interval ending now, so no W-second interval, wherever it
 * starts, ever holds more than `limit` allowed hits (a fixed window let
 * twice the limit through across its boundary). The price is that a hit
 * keeps counting up to one sub-window longer than W.
 *
 * The counts of one subject live in one item, in a ring of
 * {@link RING_SLOTS} slots named by sub-window index modulo the ring size;
 * each hit clears the slots that have left its span, so one UpdateItem both
 * counts and forgets.
 */

/** One rule: at most `limit` hits per `windowSeconds`. */
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/** Sub-windows per window: the granularity of the sliding window. */
export const SUB_WINDOWS = 10;
/** Slots of the ring: the span's {@link SUB_WINDOWS} + 1 and as many that have left it. */
export const RING_SLOTS = 2 * SUB_WINDOWS + 2;

/** Where the hit of one moment goes under one rule. */
export interface SlidingWindowPlan {
  /** Index of the moment's sub-window since the epoch. */
  index: number;
  /** Its slot in the ring (`index mod RING_SLOTS`). */
  slot: number;
  /** Slots whose counts have left the span and are cleared by this hit. */
  clearSlots: number[];
  /** UNIX seconds after which every count in the item has left every span (the item's TTL). */
  expiresAt: number;
}

/** What the counts mean for the request being judged. */
export interface RateLimitVerdict {
  /** true when the request is over the limit and must be refused (429). */
  limited: boolean;
  /** The rule's limit (`X-RateLimit-Limit`). */
  limit: number;
  /** Hits left in the window after this one, never negative (`X-RateLimit-Remaining`). */
  remaining: number;
  /** Seconds (float) until one more request would be allowed; 0 when allowed now (`retry-after`). */
  secondsToFreedom: number;
  /** UNIX time in whole seconds when every counted hit has left the window (`X-RateLimit-Reset`). */
  resetAt: number;
}

function subWindowMs(rule: RateLimitRule): number {
  return (rule.windowSeconds * 1000) / SUB_WINDOWS;
}

/**
 * The sub-window and ring slot of a moment, and the slots its hit clears.
 * @param nowMs milliseconds since the UNIX epoch
 */
export function slidingWindowPlan(rule: RateLimitRule, nowMs: number): SlidingWindowPlan {
  const index = Math.floor(nowMs / subWindowMs(rule));
  const clearSlots: number[] = [];
  for (let d = 1; d <= RING_SLOTS - SUB_WINDOWS - 1; d++) clearSlots.push((index + d) % RING_SLOTS);
  return {
    index,
    slot: index % RING_SLOTS,
    clearSlots,
    expiresAt: Math.ceil(((index + SUB_WINDOWS + 1) * subWindowMs(rule)) / 1000),
  };
}

/**
 * Judges the hits of a subject at a moment.
 * @param counts hits per sub-window index; indexes outside the span are ignored
 * @param nowMs milliseconds since the UNIX epoch
 * @param request `counted` when `counts` already hold this request's hit (the
 *   API limits count every request); `uncounted` when they hold earlier hits
 *   only (failure limits, where only a failure is a hit): the request is then
 *   limited once the counts reach the limit
 */
export function judgeRateLimit(
  rule: RateLimitRule,
  counts: ReadonlyMap<number, number>,
  nowMs: number,
  request: "counted" | "uncounted" = "counted",
): RateLimitVerdict {
  const { index } = slidingWindowPlan(rule, nowMs);
  const sub = subWindowMs(rule);
  const inSpan = [...counts]
    .filter(([i, n]) => i >= index - SUB_WINDOWS && i <= index && n > 0)
    .sort(([a], [b]) => a - b);
  const stored = inSpan.reduce((sum, [, n]) => sum + n, 0);
  const total = stored + (request === "uncounted" ? 1 : 0);
  const leavesAt = (i: number) => ((i + SUB_WINDOWS + 1) * sub) / 1000;
  const newest = inSpan.length > 0 ? inSpan[inSpan.length - 1]![0] : index;
  let secondsToFreedom = 0;
  if (total > rule.limit) {
    // The next request is allowed once enough of the oldest sub-windows have left the span.
    let left = stored;
    for (const [i, n] of inSpan) {
      left -= n;
      if (left + 1 <= rule.limit) {
        secondsToFreedom = Math.max(0, leavesAt(i) - nowMs / 1000);
        break;
      }
    }
  }
  return {
    limited: total > rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - total),
    secondsToFreedom,
    resetAt: Math.ceil(leavesAt(Math.max(newest, request === "uncounted" ? index : newest))),
  };
}
