/**
 * The bench's "rate limits and response sizes" section, run after the
 * parts:
 *
 * - what a rate-limited request costs: the same authenticated request
 *   (`GET /users/me`) made {@link PROBE_REQUESTS} times with the limits off
 *   (as the rest of the bench runs) and again with them on, switched in
 *   process on the stack's configuration, DynamoDB round trips and capacity
 *   units per request compared (the limit adds one counter `UpdateItem`);
 * - the largest answer bodies of `GET /messages` and `POST /register` the
 *   bench's clients received, in bytes as sent and gzipped, against
 *   Lambda's 6 MB response limit; one full `POST /register` with
 *   `include_subscribers` (the organization's every stream and user) is
 *   made here, so the largest register is not only the events part's small
 *   message-only ones.
 */
import type { BenchStack } from "./setup.js";
import { ApiClient, largestResponses, mergeLargest, SIZED_REQUESTS, type ResponseSize } from "./http.js";
import type { DriverWorker } from "./drivers.js";
import { diff, type Totals } from "./meter.js";
import { perOpCommands } from "./part-messages.js";
import { benchUser } from "./seed.js";
import { fmt, renderTable } from "./table.js";

/** Measured requests per condition. */
const PROBE_REQUESTS = 20;
/** Unmeasured requests before each condition (connections, JIT). */
const WARMUP = 3;
/** Lambda's response payload limit, bytes. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

/** Per-request DynamoDB work of one condition. */
export interface LimitCondition {
  requests: number;
  errors: number;
  roundTrips: number;
  rcu: number;
  wcu: number;
  /** Calls per command name per request, e.g. `GetItem 2, UpdateItem 1`. */
  commands: string;
}

export interface LimitsResult {
  request: string;
  off: LimitCondition;
  on: LimitCondition;
  /** Largest body per sized request (`GET /messages`, `POST /register`); absent when none was made. */
  largest: Record<string, ResponseSize>;
  fullRegister: { status: number; ms: number };
}

function perRequest(t: Totals, requests: number, errors: number): LimitCondition {
  return {
    requests,
    errors,
    roundTrips: t.calls / requests,
    rcu: t.rcu / requests,
    wcu: t.wcu / requests,
    commands: perOpCommands(t.byCommand, requests),
  };
}

/**
 * Runs the section: the rate-limit probe, one full `POST /register`, then
 * collects the largest answers of this thread and the driver worker.
 * Leaves the stack's limits as it found them.
 */
export async function runLimitsPart(bench: BenchStack, driver: DriverWorker, log: (line: string) => void): Promise<LimitsResult> {
  const api = new ApiClient(bench.stack.url);
  const owner = benchUser(bench.owner);
  const config = bench.stack.deps.config;
  const before = config.RATE_LIMITS;
  const measure = async (limits: "on" | "off"): Promise<LimitCondition> => {
    config.RATE_LIMITS = limits;
    for (let i = 0; i < WARMUP; i++) await api.call(owner, "GET", "/users/me");
    const start = bench.meter.snapshot();
    let errors = 0;
    for (let i = 0; i < PROBE_REQUESTS; i++) if ((await api.call(owner, "GET", "/users/me")).status !== 200) errors++;
    return perRequest(diff(bench.meter.snapshot(), start).request, PROBE_REQUESTS, errors);
  };
  try {
    log(`rate limits: GET /users/me × ${PROBE_REQUESTS}, limits off then on`);
    const off = await measure("off");
    const on = await measure("on");
    config.RATE_LIMITS = before;
    log("POST /register with include_subscribers (every event type)");
    const full = await api.call(owner, "POST", "/register", { include_subscribers: true }, { timeoutMs: 120_000 });
    const largest = mergeLargest(largestResponses(), await driver.largestResponses());
    return { request: "GET /users/me", off, on, largest, fullRegister: { status: full.status, ms: full.ms } };
  } finally {
    config.RATE_LIMITS = before;
    api.close();
  }
}

/** The section's tables. */
export function renderLimits(r: LimitsResult): string {
  const extraTrips = r.on.roundTrips - r.off.roundTrips;
  const extraWcu = r.on.wcu - r.off.wcu;
  const limits = renderTable(
    `Rate limits: DynamoDB work of one ${r.request}, limits off vs on (${fmt(r.on.requests)} requests each)`,
    ["limits", "round trips", "RCU", "WCU", "errors", "calls per request"],
    [
      ["off", fmt(r.off.roundTrips, 2), fmt(r.off.rcu, 2), fmt(r.off.wcu, 2), r.off.errors, r.off.commands],
      ["on", fmt(r.on.roundTrips, 2), fmt(r.on.rcu, 2), fmt(r.on.wcu, 2), r.on.errors, r.on.commands],
    ],
    [
      `A rate-limited request adds ${fmt(extraTrips, 2)} round trip(s) and ${fmt(extraWcu, 2)} WCU (the counter's UpdateItem, run alongside the authentication reads).`,
    ],
  );
  const sizes = renderTable(
    "Largest response bodies the bench received",
    ["request", "bytes", "gzip bytes", "of Lambda's 6 MB"],
    SIZED_REQUESTS.map((key) => {
      const s = r.largest[key];
      return [key, s?.bytes, s?.gzipBytes, s ? `${fmt((100 * s.bytes) / LAMBDA_RESPONSE_LIMIT, 1)}%` : undefined];
    }),
    [`POST /register includes one full register with include_subscribers (HTTP ${r.fullRegister.status}, ${fmt(Math.round(r.fullRegister.ms))} ms).`],
  );
  return `${limits}\n\n${sizes}`;
}
