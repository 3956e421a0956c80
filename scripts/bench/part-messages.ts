/**
 * Part 1 of the bench (issue "Streams… messages"): `POST /messages` to a
 * small and a large stream, `GET /messages` on the usual narrows over a
 * large history, the DynamoDB units and round trips of each, and DynamoDB
 * Local's own rates for scale.
 */
import type { UserRecord } from "../../shared/data/records/user.js";

import type { Sizes } from "./args.js";
import type { DriverWorker } from "./drivers.js";
import { addTotals, diff, type MeterDelta } from "./meter.js";
import { measureRawRates, type RawRate } from "./raw.js";
import { benchUser, createUsers, loadHistory, SEARCH_WORD, subscribeUsers, type HistoryInfo } from "./seed.js";
import { drainDeferred, type BenchStack } from "./setup.js";
import { ratePerSecond, ratio, summarize, type LatencySummary } from "./stats.js";
import { fmt, fmtMs, renderTable, type Cell } from "./table.js";

/** Stream names this part uses (created at setup). */
export const MESSAGE_STREAMS = { small: "bench-small", medium: "bench-medium", large: "bench-large", history: "bench-history" } as const;

export interface SendRow {
  audience: number;
  sends: number;
  errors: number;
  errorSamples: string[];
  latency: LatencySummary;
  perSecond: number;
  /** DynamoDB work while the sends ran (request path) and until the deferred work drained (jobs). */
  meter: MeterDelta;
  /** Time the deferred-work backlog took to drain after the last send answered, ms. */
  drainMs: number | undefined;
  /** Why the phase did not finish (a driver timeout, say); its figures are then empty. */
  failed?: string;
}

export interface ReadRow {
  narrow: string;
  requests: number;
  errors: number;
  errorSamples: string[];
  messagesPerAnswer: number;
  latency: LatencySummary;
  perSecond: number;
  meter: MeterDelta;
  failed?: string;
}

export interface MessagesResult {
  raw: RawRate[];
  sends: SendRow[];
  history: HistoryInfo | undefined;
  reads: ReadRow[];
  setupMs: Record<string, number>;
  /** Extra wait for the send phases' backlog before the reads started, ms (undefined: not drained within the bound). */
  settleBeforeReadsMs?: number;
}

/** Average calls per operation by command, e.g. `Get 3, Query 1, BatchGet 1`. */
export function perOpCommands(byCommand: Record<string, number>, ops: number): string {
  return Object.entries(byCommand)
    .sort((a, b) => b[1] - a[1])
    .map(([cmd, n]) => `${cmd.replace(/Command$/, "").replace(/Item$/, "")} ${fmt(n / ops, n / ops >= 10 ? 0 : 1)}`)
    .join(", ");
}

/**
 * Runs part 1.
 * @param log progress lines (stderr)
 */
export async function runMessagesPart(
  bench: BenchStack,
  driver: DriverWorker,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<MessagesResult> {
  const { stack, meter, realm } = bench;
  const deps = stack.deps;
  const setupMs: Record<string, number> = {};
  const result: MessagesResult = { raw: [], sends: [], history: undefined, reads: [], setupMs };

  // --- users and subscriptions ----------------------------------------
  let t = performance.now();
  const senders = await createUsers(deps, realm, "sender", sizes.senders);
  const smallExtra = await createUsers(deps, realm, "small", Math.max(0, 10 - senders.length));
  const mediumExtra = await createUsers(deps, realm, "medium", Math.max(0, 100 - senders.length));
  const largeExtra = await createUsers(deps, realm, "large", Math.max(0, sizes.largeSubscribers - senders.length));
  setupMs.users = performance.now() - t;
  log(`created ${senders.length + smallExtra.length + mediumExtra.length + largeExtra.length} users in ${(setupMs.users / 1000).toFixed(1)} s`);
  t = performance.now();
  const small = bench.streams.get(MESSAGE_STREAMS.small)!;
  const medium = bench.streams.get(MESSAGE_STREAMS.medium)!;
  const large = bench.streams.get(MESSAGE_STREAMS.large)!;
  await subscribeUsers(deps, small, [...senders, ...smallExtra]);
  await subscribeUsers(deps, medium, [...senders, ...mediumExtra]);
  await subscribeUsers(deps, large, [...senders, ...largeExtra]);
  setupMs.subscriptions = performance.now() - t;

  // --- history ----------------------------------------------------------
  t = performance.now();
  const [viewer] = await createUsers(deps, realm, "viewer", 1);
  const writers = await createUsers(deps, realm, "writer", 3);
  const history = bench.streams.get(MESSAGE_STREAMS.history)!;
  await subscribeUsers(deps, history, [viewer!, ...writers]);
  log(`loading ${sizes.messages} messages through the data layer`);
  let lastLog = performance.now();
  result.history = await loadHistory(
    deps,
    realm,
    history,
    viewer!,
    writers,
    {
      messages: sizes.messages,
      topics: 20,
      dmShare: 0.05,
      starredShare: 0.01,
      unreadShare: 0.02,
      searchShare: 0.01,
      batchSize: 250,
      parallel: 6,
    },
    (done) => {
      if (performance.now() - lastLog > 15_000) {
        lastLog = performance.now();
        log(`  ${done} messages loaded`);
      }
    },
  );
  setupMs.history = performance.now() - t;
  log(`loaded ${result.history.items} items in ${(result.history.elapsedMs / 1000).toFixed(1)} s`);

  // --- raw storage rates (after the history load: the JVM is warm and the table full) ---
  log(`raw DynamoDB Local rates (${sizes.rawOps} ops each, ${sizes.senders} in flight)`);
  result.raw = await measureRawRates(deps.config, deps.table, sizes.rawOps, sizes.senders);

  // --- POST /messages ----------------------------------------------------
  const sendPhase = async (name: string, audience: number, count: number): Promise<SendRow> => {
    log(`POST /messages: ${count} sends to ${name} (${audience} subscribers), ${sizes.senders} senders`);
    await drainDeferred(stack, sizes.drainTimeoutMs);
    const before = meter.snapshot();
    let stats: Awaited<ReturnType<DriverWorker["sends"]>>;
    try {
      stats = await driver.sends(
        { baseUrl: stack.url, senders: senders.map(benchUser), stream: name, topic: "bench", count, concurrency: sizes.senders, warmup: 0 },
        phaseTimeout(sizes),
      );
    } catch (err) {
      log(`POST /messages to ${name} failed: ${(err as Error).message}`);
      return failedSend(audience, diff(meter.snapshot(), before), (err as Error).message);
    }
    const sent = meter.snapshot();
    const drainMs = await drainDeferred(stack, sizes.drainTimeoutMs);
    const after = meter.snapshot();
    // Request-path work counts while the sends ran; job work until the backlog drained.
    const window = diff(sent, before);
    const tail = diff(after, sent);
    const m: MeterDelta = {
      elapsedMs: window.elapsedMs,
      request: window.request,
      deferred: addTotals(window.deferred, tail.deferred),
      all: addTotals(window.all, tail.deferred),
    };
    if (tail.request.calls > 0) m.request = addTotals(m.request, tail.request);
    return {
      audience,
      sends: stats.latencies.length,
      errors: stats.errors,
      errorSamples: stats.errorSamples,
      latency: summarize(stats.latencies),
      perSecond: ratePerSecond(stats.latencies.length, stats.elapsedMs),
      meter: m,
      drainMs,
    };
  };
  // A few unmeasured sends warm both code paths (JIT, connections, the DM/stream caches of DynamoDB Local).
  // Their timeout scales with the run's bound: on a loaded machine 20 sends can take minutes.
  await driver.sends({ baseUrl: stack.url, senders: senders.map(benchUser), stream: small.name, topic: "warm", count: 20, concurrency: 4, warmup: 0 }, phaseTimeout(sizes));
  await driver.sends({ baseUrl: stack.url, senders: senders.map(benchUser), stream: large.name, topic: "warm", count: 2, concurrency: 2, warmup: 0 }, phaseTimeout(sizes));
  result.sends.push(await sendPhase(small.name, senders.length + smallExtra.length, sizes.sends));
  result.sends.push(await sendPhase(medium.name, senders.length + mediumExtra.length, sizes.mediumSends));
  result.sends.push(await sendPhase(large.name, senders.length + largeExtra.length, sizes.largeSends));
  // The reads start on an idle stack: a large stream's jobs can outlast the send phase's drain bound.
  result.settleBeforeReadsMs = await drainDeferred(stack, sizes.drainTimeoutMs);
  log(
    result.settleBeforeReadsMs === undefined
      ? `backlog of the sends not drained within ${sizes.drainTimeoutMs / 1000} s more; reads start with it`
      : `backlog of the sends drained ${(result.settleBeforeReadsMs / 1000).toFixed(1)} s before the reads`,
  );

  // --- GET /messages -------------------------------------------------------
  const page = { anchor: "newest", num_before: 100, num_after: 0, apply_markdown: true, client_gravatar: true };
  const narrows: [string, unknown[]][] = [
    ["home (no narrow)", []],
    ["stream", [{ operator: "channel", operand: history.name }]],
    ["stream + topic", [{ operator: "channel", operand: history.name }, { operator: "topic", operand: result.history.topicName }]],
    ["dm", [{ operator: "dm", operand: [writers[0]!.user_id] }]],
    ["is:starred", [{ operator: "is", operand: "starred" }]],
    [`search "${SEARCH_WORD}"`, [{ operator: "search", operand: SEARCH_WORD }]],
  ];
  const viewerCreds = benchUser(viewer as UserRecord);
  for (const [name, narrow] of narrows) {
    log(`GET /messages ${name}: ${sizes.reads} requests, ${sizes.senders} in flight`);
    const params = { ...page, narrow };
    let before = meter.snapshot();
    let stats: Awaited<ReturnType<DriverWorker["gets"]>>;
    try {
      await driver.gets({ baseUrl: stack.url, user: viewerCreds, params, count: 10, concurrency: 2, warmup: 0 }, phaseTimeout(sizes));
      before = meter.snapshot();
      stats = await driver.gets(
        { baseUrl: stack.url, user: viewerCreds, params, count: sizes.reads, concurrency: sizes.senders, warmup: 0 },
        phaseTimeout(sizes),
      );
    } catch (err) {
      // One narrow's failure (a driver timeout on a loaded machine) is reported; the other narrows still run.
      log(`GET /messages ${name} failed: ${(err as Error).message}`);
      const empty = summarize([]);
      result.reads.push({ narrow: name, requests: 0, errors: 0, errorSamples: [], messagesPerAnswer: 0, latency: empty, perSecond: 0, meter: diff(meter.snapshot(), before), failed: (err as Error).message });
      continue;
    }
    const m = diff(meter.snapshot(), before);
    result.reads.push({
      narrow: name,
      requests: stats.latencies.length,
      errors: stats.errors,
      errorSamples: stats.errorSamples,
      messagesPerAnswer: stats.messagesPerAnswer,
      latency: summarize(stats.latencies),
      perSecond: ratePerSecond(stats.latencies.length, stats.elapsedMs),
      meter: m,
    });
  }
  return result;
}

/** A driver operation may take up to the whole run's bound: the hard stop, not a phase, ends a slow run. */
function phaseTimeout(sizes: Sizes): number {
  return Math.max(60_000, sizes.maxMinutes * 60_000);
}

function failedSend(audience: number, meter: MeterDelta, message: string): SendRow {
  return { audience, sends: 0, errors: 0, errorSamples: [], latency: summarize([]), perSecond: 0, meter, drainMs: undefined, failed: message };
}

/** Renders part 1's tables. */
export function renderMessages(r: MessagesResult, sizes: Sizes): string {
  const out: string[] = [];
  const put = r.raw.find((x) => x.op.startsWith("PutItem"));
  const query = r.raw.find((x) => x.op.startsWith("Query"));
  out.push(
    renderTable(
      `DynamoDB Local alone (same run, ${sizes.senders} requests in flight, small items)`,
      ["operation", "ops", "ops/s", "p50 ms", "p99 ms"],
      r.raw.map((x) => [x.op, x.count, Math.round(x.perSecond), fmtMs(x.latency.p50), fmtMs(x.latency.p99)]),
    ),
  );

  const sendRows: Cell[][] = r.sends.map((s) => {
    const n = Math.max(1, s.sends);
    return [
      `${fmt(s.audience)} subscribers`,
      s.sends,
      fmtMs(s.latency.p50),
      fmtMs(s.latency.p99),
      fmt(s.perSecond, 1),
      put ? `${fmt(ratio(s.perSecond, put.perSecond) * 100, 1)}%` : "-",
      fmt(s.meter.request.calls / n, 1),
      fmt(s.meter.request.rcu / n, 1),
      fmt(s.meter.request.wcu / n, 1),
      fmt(s.meter.deferred.calls / n, 1),
      fmt(s.meter.deferred.wcu / n, 0),
      s.drainMs === undefined ? "timeout" : fmt(s.drainMs / 1000, 1),
    ];
  });
  out.push(
    renderTable(
      `POST /messages (${sizes.senders} concurrent senders)`,
      ["stream", "sends", "p50 ms", "p99 ms", "msg/s", "of PutItem/s", "req RT", "req RCU", "req WCU", "job RT", "job WCU", "drain s"],
      sendRows,
      [
        "req RT/RCU/WCU: DynamoDB round trips and capacity units per send inside the request (auth included).",
        "job RT/WCU: per send, in SQS jobs (search index; rows and events of audiences > 100), counted until drained.",
        "drain s: time the job backlog took to empty after the last send answered.",
        ...r.sends.map((s) => `  ${fmt(s.audience)} subscribers, request calls/send: ${perOpCommands(s.meter.request.byCommand, Math.max(1, s.sends))}`),
        ...r.sends.filter((s) => s.errors > 0).map((s) => `  ${s.errors} errors, e.g. ${s.errorSamples[0]}`),
        ...r.sends.filter((s) => s.failed).map((s) => `  ${fmt(s.audience)} subscribers: phase FAILED: ${s.failed}`),
        r.settleBeforeReadsMs === undefined
          ? `The sends' backlog did not drain within the bound before the reads started (${fmt(sizes.drainTimeoutMs / 1000, 0)} s).`
          : `The sends' backlog drained ${fmt(r.settleBeforeReadsMs / 1000, 1)} s after the last phase's own drain; the reads started on an idle stack.`,
      ],
    ),
  );

  if (r.history) {
    const h = r.history;
    const readRows: Cell[][] = r.reads.map((x) => {
      const n = Math.max(1, x.requests);
      return [
        x.narrow,
        x.requests,
        fmt(x.messagesPerAnswer, 0),
        fmtMs(x.latency.p50),
        fmtMs(x.latency.p99),
        fmt(x.perSecond, 1),
        query ? `${fmt(ratio(x.perSecond, query.perSecond) * 100, 1)}%` : "-",
        fmt(x.meter.request.calls / n, 1),
        fmt(x.meter.request.rcu / n, 1),
        fmt(x.meter.request.wcu / n, 1),
      ];
    });
    out.push(
      renderTable(
        `GET /messages anchor=newest num_before=100 num_after=0 (${fmt(h.streamMessages + h.dmMessages)} messages in the table, ${sizes.senders} in flight)`,
        ["narrow", "requests", "msgs", "p50 ms", "p99 ms", "req/s", "of Query/s", "RT", "RCU", "WCU"],
        readRows,
        [
          `History: ${fmt(h.streamMessages)} stream messages in 20 topics (topic narrow: ${fmt(h.topicMessages)} messages), ${fmt(h.dmMessages)} DMs, ${fmt(h.starred)} starred, ${fmt(h.searchable)} containing "${SEARCH_WORD}"; ${fmt(h.items)} items loaded in ${fmt(h.elapsedMs / 1000, 1)} s.`,
          "RT/RCU/WCU: DynamoDB round trips and capacity units per request (authentication included).",
          ...r.reads.map((x) => `  ${x.narrow}: ${perOpCommands(x.meter.request.byCommand, Math.max(1, x.requests))}`),
          ...r.reads.filter((x) => x.errors > 0).map((x) => `  ${x.narrow}: ${x.errors} errors, e.g. ${x.errorSamples[0]}`),
          ...r.reads.filter((x) => x.failed).map((x) => `  ${x.narrow}: phase FAILED: ${x.failed}`),
        ],
      ),
    );
  }
  return out.join("\n\n");
}
