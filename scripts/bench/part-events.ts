/**
 * Part 2 of the bench (issue "Real-time events"): hundreds of clients
 * long-polling `GET /events`, what they cost while idle, and how fast a
 * sent message reaches them at a few send rates.
 */
import { INLINE_RECIPIENT_LIMIT } from "../../shared/actions/messages/do-send-message.js";
import { loadConfig } from "../../shared/config.js";
import type { Sizes } from "./args.js";
import type { DriverWorker } from "./drivers.js";
import type { DeliverResult, PollStats } from "./load.js";
import { diff, type MeterDelta } from "./meter.js";
import { perOpCommands } from "./part-messages.js";
import { benchUser, createUsers, subscribeUsers } from "./seed.js";
import { drainDeferred, type BenchStack } from "./setup.js";
import { ratio, summarize, type LatencySummary } from "./stats.js";
import { fmt, fmtMs, renderTable, type Cell } from "./table.js";

/** Names of the streams the pollers are subscribed to (created at setup). */
export function liveStreamNames(count: number): string[] {
  return Array.from({ length: count }, (_, k) => `bench-live-${k}`);
}

/** Per send, milliseconds from the instant before the send request (or between the named steps). */
export interface DeliveryBreakdown {
  answered: LatencySummary;
  enqueued: LatencySummary;
  received: LatencySummary;
  firstWrite: LatencySummary;
  lastWrite: LatencySummary;
  toLastClient: LatencySummary;
  writeToFirstClient: LatencySummary;
}

/** One delivery phase: sends at a fixed rate while every client polls. */
export interface DeliveryRun {
  rate: number;
  seconds: number;
  audiencePerSend: number;
  sends: number;
  sendErrors: number;
  sendErrorSamples: string[];
  sendLatency: LatencySummary;
  /** Per delivered event: send instant → arrival at the client. */
  delivery: LatencySummary;
  /** Per send: send instant → arrival at its last client. */
  fanoutComplete: LatencySummary;
  expected: number;
  delivered: number;
  lateSends: number;
  /** Everything DynamoDB did from the first send until the job backlog drained (idle polling included). */
  meter: MeterDelta;
  drainMs: number | undefined;
  breakdown: DeliveryBreakdown;
}

export interface EventsResult {
  pollers: number;
  register: { latency: LatencySummary; errors: number; errorSamples: string[]; meter: MeterDelta };
  idle: { seconds: number; polls: number; heartbeats: number; meter: MeterDelta };
  runs: DeliveryRun[];
  final: PollStats | undefined;
  holdMs: number;
  /** The local stack's re-read interval (its waiters are also woken in-process). */
  recheckMs: number;
  /** The re-read interval on AWS, where nothing wakes a waiting Lambda. */
  awsRecheckMs: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Splits one delivery phase's timings into steps, with the probes' records. */
function breakdownOf(bench: BenchStack, d: DeliverResult): DeliveryBreakdown {
  const steps = { answered: [], enqueued: [], received: [], firstWrite: [], lastWrite: [], toLastClient: [], writeToFirstClient: [] } as Record<
    keyof DeliveryBreakdown,
    number[]
  >;
  for (const s of d.perSend) {
    const t0 = Number(s.ts);
    if (s.answered) steps.answered.push(s.answered - t0);
    const enq = s.messageId !== undefined ? bench.jobs.enqueued.get(s.messageId) : undefined;
    const rec = s.messageId !== undefined ? bench.jobs.received.get(s.messageId) : undefined;
    if (enq !== undefined) steps.enqueued.push(enq - t0);
    if (rec !== undefined) steps.received.push(rec - t0);
    const w = bench.probe.fanoutWrites(s.ts);
    if (!w) continue;
    steps.firstWrite.push(w.firstStart - t0);
    steps.lastWrite.push(w.lastEnd - t0);
    if (s.expected > 0 && s.arrived >= s.expected) steps.toLastClient.push(s.last - w.lastEnd);
    if (s.first) steps.writeToFirstClient.push(s.first - w.firstStart);
  }
  return Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, summarize(v)])) as unknown as DeliveryBreakdown;
}

/**
 * Runs part 2: one queue per poller user (`POST /register`), every queue
 * long-polling; an idle window without sends; then, for each rate in
 * `sizes.eventRates`, sends at that rate while they poll.
 */
export async function runEventsPart(
  bench: BenchStack,
  driver: DriverWorker,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<EventsResult> {
  const { stack, meter, realm } = bench;
  const deps = stack.deps;
  const streams = liveStreamNames(sizes.eventStreams).map((n) => bench.streams.get(n)!);
  const t = performance.now();
  const pollers = await createUsers(deps, realm, "poller", sizes.pollers);
  const senders = await createUsers(deps, realm, "live-sender", 2);
  for (let k = 0; k < streams.length; k++) {
    await subscribeUsers(deps, streams[k]!, [...senders, ...pollers.filter((_, i) => i % streams.length === k)]);
  }
  log(`created ${pollers.length} pollers in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await drainDeferred(stack, sizes.drainTimeoutMs);

  log(`POST /register × ${pollers.length}`);
  let before = meter.snapshot();
  const reg = await driver.eventsRegister(
    stack.url,
    pollers.map((u, i) => ({ user: benchUser(u), stream: i % streams.length })),
    sizes.senders,
    // Registers slow down with the machine's load: bounded by the run's hard stop, not a fixed 2 minutes.
    Math.max(120_000, sizes.maxMinutes * 60_000),
  );
  const regMeter = diff(meter.snapshot(), before);

  try {
    await driver.eventsStart();
    // Every poller's first request has reached its wait by now.
    await sleep(3000);
    log(`idle: ${pollers.length} queues long-polling for ${sizes.idleSeconds} s, no sends`);
    const idleStats0 = await driver.eventsStats();
    before = meter.snapshot();
    await sleep(sizes.idleSeconds * 1000);
    const idleMeter = diff(meter.snapshot(), before);
    const idleStats1 = await driver.eventsStats();

    const runs: DeliveryRun[] = [];
    const audiencePerSend = Math.round(pollers.length / streams.length);
    for (const rate of sizes.eventRates) {
      log(`delivery: ${rate} sends/s for ${sizes.eventSeconds} s to ${streams.length} stream(s) of ~${audiencePerSend} pollers`);
      before = meter.snapshot();
      const d = await driver.eventsDeliver(
        { senders: senders.map(benchUser), streams: streams.map((s) => s.name), rate, durationMs: sizes.eventSeconds * 1000, graceMs: 30_000 },
        sizes.eventSeconds * 1000 + 120_000,
      );
      const drainMs = await drainDeferred(stack, sizes.drainTimeoutMs);
      runs.push({
        rate,
        seconds: sizes.eventSeconds,
        audiencePerSend,
        sends: d.sends.latencies.length,
        sendErrors: d.sends.errors,
        sendErrorSamples: d.sends.errorSamples,
        sendLatency: summarize(d.sends.latencies),
        delivery: summarize(d.deliveries),
        fanoutComplete: summarize(d.fanoutComplete),
        expected: d.expected,
        delivered: d.delivered,
        lateSends: d.lateSends,
        meter: diff(meter.snapshot(), before),
        drainMs,
        breakdown: breakdownOf(bench, d),
      });
      // Let the clients' queues settle before the next rate.
      await sleep(2000);
    }
    const final = await driver.eventsStop();
    return {
      pollers: pollers.length,
      register: { latency: summarize(reg.latencies), errors: reg.errors, errorSamples: reg.errorSamples, meter: regMeter },
      idle: {
        seconds: idleMeter.elapsedMs / 1000,
        polls: idleStats1.polls - idleStats0.polls,
        heartbeats: idleStats1.heartbeats - idleStats0.heartbeats,
        meter: idleMeter,
      },
      runs,
      final,
      holdMs: deps.config.LONGPOLL_HOLD_MS,
      recheckMs: deps.config.LONGPOLL_RECHECK_MS,
      // What a deployment uses: the configuration default, read the same way a Lambda reads it.
      awsRecheckMs: loadConfig({}).LONGPOLL_RECHECK_MS,
    };
  } catch (err) {
    await driver.eventsStop().catch(() => undefined);
    throw err;
  }
}

/** Renders part 2's tables. */
export function renderEvents(r: EventsResult, sizes: Sizes): string {
  const out: string[] = [];
  const rate = (x: DeliveryRun) => `${fmt(x.rate, 1)}/s`;

  out.push(
    renderTable(
      `Event delivery: ${r.pollers} clients long-polling GET /events (${sizes.eventStreams} stream(s), ~${r.runs[0]?.audiencePerSend ?? r.pollers} polling recipients per send), ${sizes.eventSeconds} s per rate`,
      ["sends", "count", "send p50", "send p99", "event p50", "event p99", "last p50", "last p99", "delivered", "RT/event", "RCU/event", "WCU/event"],
      r.runs.map((x) => [
        rate(x),
        x.sends,
        fmtMs(x.sendLatency.p50),
        fmtMs(x.sendLatency.p99),
        fmtMs(x.delivery.p50),
        fmtMs(x.delivery.p99),
        fmtMs(x.fanoutComplete.p50),
        fmtMs(x.fanoutComplete.p99),
        `${fmt(ratio(x.delivered, x.expected) * 100, 1)}%`,
        fmt(ratio(x.meter.all.calls, x.delivered), 2),
        fmt(ratio(x.meter.all.rcu, x.delivered), 2),
        fmt(ratio(x.meter.all.wcu, x.delivered), 2),
      ]),
      [
        "send p50/p99: POST /messages latency (ms) while the clients poll.",
        "event p50/p99: per delivered event, from the instant before the send request to its arrival at a polling client (ms).",
        "last p50/p99: per send, until its last recipient client had it (ms).",
        "RT/RCU/WCU per event: everything DynamoDB did from the first send until the job backlog drained, idle re-reads of the",
        "  same window included, divided by the events delivered.",
        `POST /register (event_types=[message]) × ${r.register.latency.count}: p50 ${fmtMs(r.register.latency.p50)} ms, p99 ${fmtMs(r.register.latency.p99)} ms, ${fmt(ratio(r.register.meter.all.calls, r.register.latency.count), 1)} round trips each.`,
        ...r.runs.map(
          (x) =>
            `  ${rate(x)}: ${fmt(x.delivered)} of ${fmt(x.expected)} events; ${x.lateSends} sends started late; backlog drained ${x.drainMs === undefined ? "not within the timeout" : `${fmt(x.drainMs / 1000, 1)} s after the last send`}; calls per event: ${perOpCommands(x.meter.all.byCommand, Math.max(1, x.delivered))}.`,
        ),
        ...r.runs.filter((x) => x.sendErrors > 0).map((x) => `  ${rate(x)}: ${x.sendErrors} send errors, e.g. ${x.sendErrorSamples[0]}`),
        ...(r.register.errors > 0 ? [`  ${r.register.errors} register errors, e.g. ${r.register.errorSamples[0]}`] : []),
        ...(r.final && r.final.errors > 0 ? [`  ${r.final.errors} poll errors, e.g. ${r.final.errorSamples[0]}`] : []),
      ],
    ),
  );

  const steps: [string, keyof DeliveryBreakdown][] = [
    ["POST /messages answered", "answered"],
    ["its write_user_messages job accepted by SQS", "enqueued"],
    ["job received by the consumer", "received"],
    ["first recipient event copy being written", "firstWrite"],
    ["last recipient event copy written", "lastWrite"],
    ["last copy written -> last client has it", "toLastClient"],
    ["first copy written -> first client has it", "writeToFirstClient"],
  ];
  out.push(
    renderTable(
      "Where delivery time goes (per send, ms from the instant before the send request unless the step says otherwise)",
      ["step", ...r.runs.flatMap((x) => [`${rate(x)} p50`, `${rate(x)} p99`])],
      steps.map(([name, key]) => [name, ...r.runs.flatMap((x) => [fmtMs(x.breakdown[key].p50), fmtMs(x.breakdown[key].p99)])] as Cell[]),
      [
        `Audiences above ${INLINE_RECIPIENT_LIMIT} recipients get their rows and events from SQS jobs (write_user_messages), so "being written" follows`,
        "the queue and the rows' writes; smaller audiences are written inside the request (no job rows then).",
      ],
    ),
  );

  const idle = r.idle;
  const im = idle.meter.all;
  const queueMinutes = (r.pollers * idle.seconds) / 60;
  const per = (x: number) => fmt(ratio(x, queueMinutes), 1);
  const queries = im.byCommand.QueryCommand ?? 0;
  const queryUnits = im.unitsByCommand.QueryCommand ?? 0;
  // AWS model: one poll per hold; each poll = its other calls (auth, queue GetItem, heartbeat PutItem)
  // + a first Query + one Query per recheck. "Other" calls and units per poll are taken from the measurement.
  const pollsPerMin = 60_000 / r.holdMs;
  const queriesPerPoll = 1 + Math.floor(r.holdMs / r.awsRecheckMs);
  const otherPerPoll = idle.polls > 0 ? (im.calls - queries) / idle.polls : Number.NaN;
  const otherRcuPerPoll = idle.polls > 0 ? (im.rcu - queryUnits) / idle.polls : Number.NaN;
  const wcuPerPoll = idle.polls > 0 ? im.wcu / idle.polls : Number.NaN;
  // DynamoDB Local reports 0 units for a Query that returns nothing; DynamoDB
  // charges at least 0.5 (an eventually consistent read of up to 4 KB), as readEventLog's Query is.
  const rcuPerQuery = Math.max(0.5, ratio(queryUnits, queries) || 0);
  out.push(
    renderTable(
      `Idle queues: ${r.pollers} queues long-polling, no events, ${fmt(idle.seconds, 0)} s (${fmt(queueMinutes, 0)} queue-minutes)`,
      ["per idle queue per minute", "local (measured)", "AWS (computed)"],
      [
        ["GET /events answered (heartbeats)", per(idle.polls), fmt(pollsPerMin, 1)],
        ["DynamoDB round trips", per(im.calls), fmt(pollsPerMin * (queriesPerPoll + otherPerPoll), 1)],
        ["  Query (event log re-reads)", per(queries), fmt(pollsPerMin * queriesPerPoll, 1)],
        ["  other (auth, queue Get, heartbeat Put)", per(im.calls - queries), fmt(pollsPerMin * otherPerPoll, 1)],
        ["read units", per(im.rcu), fmt(pollsPerMin * (queriesPerPoll * rcuPerQuery + otherRcuPerPoll), 1)],
        ["write units", per(im.wcu), fmt(pollsPerMin * wcuPerPoll, 1)],
      ],
      [
        `Local: a write wakes the held polls of its recipients in-process (deps.waitForEvents); a wait also ends after`,
        `  LONGPOLL_RECHECK_MS = ${r.recheckMs} ms as a safety net, so an idle queue re-reads far less often than on AWS.`,
        `AWS: Lambdas cannot wake each other; a held poll re-reads the user's log every ${r.awsRecheckMs} ms until LONGPOLL_HOLD_MS = ${r.holdMs} ms:`,
        `  ${queriesPerPoll} Queries per poll, ${fmt(pollsPerMin, 0)} polls per minute; the other calls per poll as measured (${fmt(otherPerPoll, 1)}).`,
        `Read units: DynamoDB Local reports 0 for a Query that finds nothing; DynamoDB charges at least 0.5 per such Query, which the`,
        `  AWS column counts (${fmt(rcuPerQuery, 2)} per re-read).`,
        idle.polls > 0
          ? `Measured per idle poll: ${perOpCommands(im.byCommand, idle.polls)}.`
          : `No poll ended inside the window (shorter than the ${r.holdMs / 1000} s hold): per-poll figures need --idle-seconds above ${r.holdMs / 1000}.`,
      ],
    ),
  );
  return out.join("\n\n");
}
