import type { Deps } from "../../deps.js";
import { addRateLimitHit, removeRateLimitHit, type RateLimitScope } from "../../data/rate-limits.js";
import { judgeRateLimit, slidingWindowPlan, type RateLimitRule } from "../../domain/rate-limit.js";
import { RateLimitedError } from "../../errors.js";

/**
 * Zulip's default `RATE_LIMITING_RULES` for requests that make the server
 * send mail (`zproject/default_settings.py`), as `{limit, windowSeconds}`
 * rules; every rule of a domain must allow the request:
 * - `password_reset_form_by_email`: 2 per hour and 5 per day per address, so
 *   that nobody can flood an inbox with reset mail;
 * - `sends_email_by_ip`: 5 per day per source address, a general anti-spam limit;
 * - `email_change_by_user`: 2 per hour and 5 per day per user, since the
 *   mail goes to an address the server has no relationship with yet.
 */
export const MAIL_RATE_LIMIT_RULES = {
  password_reset_form_by_email: [
    { limit: 2, windowSeconds: 3600 },
    { limit: 5, windowSeconds: 86_400 },
  ],
  sends_email_by_ip: [{ limit: 5, windowSeconds: 86_400 }],
  email_change_by_user: [
    { limit: 2, windowSeconds: 3600 },
    { limit: 5, windowSeconds: 86_400 },
  ],
} as const satisfies Partial<Record<RateLimitScope, readonly RateLimitRule[]>>;

export type MailRateLimitScope = keyof typeof MAIL_RATE_LIMIT_RULES;

/**
 * Counts one mail-sending request against each subject's rules (Zulip's
 * `RateLimitedObject.rate_limit`, which records a request only when it is
 * allowed): one UpdateItem per rule, in parallel; when any rule refuses,
 * the hits just counted are taken back (one UpdateItem each) and the request
 * is refused. Nothing when `RATE_LIMITS=off`.
 *
 * Each rule counts in an item of its own (the subject suffixed with the
 * window), since a sliding window's ring is cut for its window length.
 * @param subjects scope → subject (an address, an IP, a user); hashed before they become keys
 * @throws RateLimitedError 429 `RATE_LIMIT_HIT` with the seconds until the tightest refusing rule frees
 */
export async function checkMailRateLimits(deps: Deps, subjects: Partial<Record<MailRateLimitScope, string>>): Promise<void> {
  if (deps.config.RATE_LIMITS === "off") return;
  const now = deps.clock.now();
  const counters = Object.entries(subjects).flatMap(([scope, subject]) =>
    MAIL_RATE_LIMIT_RULES[scope as MailRateLimitScope].map((rule) => ({
      scope: scope as MailRateLimitScope,
      subject: `${rule.windowSeconds}:${subject}`,
      rule,
      plan: slidingWindowPlan(rule, now),
    })),
  );
  const verdicts = await Promise.all(
    counters.map(async (c) => judgeRateLimit(c.rule, (await addRateLimitHit(deps, c.scope, c.subject, c.plan))!, now)),
  );
  const refused = verdicts.filter((v) => v.limited);
  if (refused.length === 0) return;
  await Promise.all(counters.map((c) => removeRateLimitHit(deps, c.scope, c.subject, c.plan)));
  throw new RateLimitedError(Math.max(...refused.map((v) => v.secondsToFreedom)));
}
