/**
 * How the account's Lambda concurrency is split between the `events`
 * function (one execution per connected client) and everything else;
 * docs/deploying.md ("Concurrency") shows the same arithmetic.
 */

/** Lambda refuses reservations that leave less than this much of the account's quota unreserved. */
export const LAMBDA_UNRESERVED_MINIMUM = 100;

/** A request's generous duration in seconds, for what the API functions need at the stage throttle. */
const API_SECONDS_PER_REQUEST = 0.5;

/** The quota to ask AWS for when the account's leaves no room for a reservation: Lambda's usual default. */
export const QUOTA_TO_ASK_FOR = 1000;

/** Percent of the events reservation at which the `events-concurrency` alarm fires. */
export const EVENTS_CONCURRENCY_ALARM_PERCENT = 80;

export interface ConcurrencyInputs {
  /** The account's "Concurrent executions" quota in the stack's region, when the operator gave it. */
  accountConcurrencyQuota?: number;
  /** The operator's reservation for `events`, when given (`0`: none). */
  eventsReservedConcurrency?: number;
  /** The worker's SQS event-source cap. */
  workerMaxConcurrency: number;
  /** The API stage's steady requests per second. */
  apiRateLimit: number;
}

/** What the stack reserves for `events`, and why. */
export interface EventsConcurrencyPlan {
  /** Executions reserved for `events`; `0`: none (it shares the account's pool). */
  reserved: number;
  /**
   * `operator`: given as is; `quota`: derived from the quota; `none`: nothing to derive from, or no room;
   * `managed-instances`: the capacity provider bounds the function instead.
   */
  source: "operator" | "quota" | "none" | "managed-instances";
  /** Why nothing is reserved, for a synth warning; absent when the operator chose it. */
  warning?: string;
}

/**
 * Executions the unreserved functions need besides Lambda's minimum: the
 * worker's cap plus the API at the stage throttle (requests per second ×
 * 0.5 s; 100 at the default 200 requests/s).
 */
export function unreservedNeed(inputs: Pick<ConcurrencyInputs, "workerMaxConcurrency" | "apiRateLimit">): number {
  return inputs.workerMaxConcurrency + Math.ceil(inputs.apiRateLimit * API_SECONDS_PER_REQUEST);
}

/**
 * The reservation for `events`. An operator's value wins (deploy-config.ts
 * already refused one the quota cannot hold). Otherwise, with the quota
 * known: half of it, and never more than leaves Lambda's 100, the worker's
 * cap and the API's need unreserved — `min(⌊Q/2⌋, Q − 100 − worker − API)`,
 * 500 of the usual 1,000. Without the quota, or with one too small for any
 * reservation, none (a deploy that reserves nothing cannot fail on the
 * quota), and a warning saying what to set or ask AWS for.
 */
export function planEventsConcurrency(inputs: ConcurrencyInputs): EventsConcurrencyPlan {
  if (inputs.eventsReservedConcurrency !== undefined) return { reserved: inputs.eventsReservedConcurrency, source: "operator" };
  const quota = inputs.accountConcurrencyQuota;
  if (quota === undefined) {
    return {
      reserved: 0,
      source: "none",
      warning:
        "No events reservation: the settings give neither accountConcurrencyQuota nor eventsReservedConcurrency, so the " +
        "events function shares the account's concurrency with every other function (many clients can throttle the API). " +
        "Set accountConcurrencyQuota to `aws lambda get-account-settings --query AccountLimit.ConcurrentExecutions` " +
        "(docs/deploying.md, \"Concurrency\").",
    };
  }
  const derived = Math.min(Math.floor(quota / 2), quota - LAMBDA_UNRESERVED_MINIMUM - unreservedNeed(inputs));
  if (derived > 0) return { reserved: derived, source: "quota" };
  return {
    reserved: 0,
    source: "none",
    warning:
      `No events reservation: an account concurrency quota of ${quota} leaves no room for one (Lambda keeps ` +
      `${LAMBDA_UNRESERVED_MINIMUM} unreserved, the worker may run ${inputs.workerMaxConcurrency} and the API needs about ` +
      `${unreservedNeed(inputs) - inputs.workerMaxConcurrency}). Ask AWS for ${QUOTA_TO_ASK_FOR} concurrent executions ` +
      `(Service Quotas, AWS Lambda, "Concurrent executions", quota code L-B99A9384), then set accountConcurrencyQuota.`,
  };
}

/** The `events-concurrency` alarm's threshold: {@link EVENTS_CONCURRENCY_ALARM_PERCENT} of the reservation, rounded up. */
export function eventsConcurrencyAlarmThreshold(reserved: number): number {
  return Math.ceil((reserved * EVENTS_CONCURRENCY_ALARM_PERCENT) / 100);
}
