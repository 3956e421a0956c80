/**
 * The bench's cost report: the counts this run measured (DynamoDB units per
 * operation, polls) times the price table (`prices.ts`), through the pure
 * arithmetic of `cost.ts`. What the bench cannot measure locally (billed
 * Lambda seconds of short requests, presence pings, the month's activity)
 * is stated here as assumptions; an input a failed or skipped part did not
 * measure falls back to the last full run's figure and is marked so.
 */
import { loadConfig } from "../../shared/config.js";
import { FUNCTION_MEMORY_MB } from "../../infra/function-memory.js";
import {
  againstTarget,
  clientHourCost,
  dominantTerm,
  idleMonthCost,
  interpolateSend,
  orgMonthCost,
  requestCost,
  scaleCost,
  sendCost,
  type Activity,
  type Cost,
  type IdlePoll,
  type SendPoint,
} from "./cost.js";
import type { EventsResult } from "./part-events.js";
import type { LimitsResult } from "./part-limits.js";
import type { MessagesResult } from "./part-messages.js";
import type { TypingResult } from "./part-typing.js";
import { AWS_PRICES, pricesLine, type Prices } from "./prices.js";
import { fmt, renderTable, type Cell } from "./table.js";

/** The issue's targets, dollars. */
export const COST_TARGETS = { clientHour: 0.0065, userMonthAt50: 1.25, idleComputeMonth: 0 } as const;

/**
 * Billed Lambda seconds of short requests: the bench measures CPU time
 * (`--parts lambda`), not AWS wall time; these are that CPU time scaled to
 * each function's memory plus DynamoDB waits (docs/performance.md, "Memory").
 * A woken poll adds no seconds: its hold is already in the connected hour.
 */
export const ASSUMED_SECONDS = { send: 0.15, read: 0.1, register: 0.8, presence: 0.15, sweep: 1 } as const;

/** Presence pings are not measured by the bench: a Get and a Put of the user's presence, plus index entries. */
export const ASSUMED_PRESENCE_UNITS = { readUnits: 2, writeUnits: 2 } as const;

/** Activity per user of the user-month lines (as docs/performance.md's "50 users, 8 hours a day"). */
export function activityFor(users: number): Activity {
  return {
    users,
    // 365 × 5/7 ÷ 12 working days a month, every user connected 8 hours of each.
    workingDaysPerMonth: 21.7,
    connectedHoursPerDay: 8,
    messagesPerDay: 40,
    // Streams as large as the organization up to 20 members; a tenth of it beyond 200 users.
    streamMembers: Math.min(users, Math.max(20, Math.round(users / 10))),
    readsPerDay: 60,
    registersPerDay: 4,
    // Zulip's clients ping presence every 60 s.
    presencePerHour: 60,
  };
}

/** Two daily sweeps (demo organizations, unclaimed attachments), and the SQS event source's 5 pollers long-polling 20 s each. */
const IDLE_MONTH = { invocations: 2 * 30.4, sqsRequests: 5 * 3 * 60 * 24 * 30.4 } as const;

/** A measured figure, or the last full run's when this run did not measure it. */
export interface Measured<T> {
  value: T;
  measured: boolean;
}

export interface CostInputs {
  holdMs: number;
  recheckMs: number;
  idlePoll: Measured<{ otherReadUnits: number; writeUnits: number; readUnitsPerQuery: number }>;
  rateLimitWcu: Measured<number>;
  send10: Measured<{ readUnits: number; writeUnits: number }>;
  send100: Measured<{ readUnits: number; writeUnits: number }>;
  wokenPoll: Measured<{ readUnits: number; writeUnits: number }>;
  read: Measured<{ readUnits: number; writeUnits: number }>;
  register: Measured<{ readUnits: number; writeUnits: number }>;
}

const measured = <T>(value: T): Measured<T> => ({ value, measured: true });
const fallback = <T>(value: T): Measured<T> => ({ value, measured: false });

/** Pulls the cost model's inputs out of whatever parts ran. */
export function costInputs(r: { messages?: MessagesResult; events?: EventsResult; typing?: TypingResult; limits?: LimitsResult }): CostInputs {
  const config = loadConfig({});
  const sendAt = (members: number) => {
    const s = r.messages?.sends.find((x) => x.audience === members && x.sends > 0);
    if (!s) return undefined;
    return { readUnits: (s.meter.request.rcu + s.meter.deferred.rcu) / s.sends, writeUnits: (s.meter.request.wcu + s.meter.deferred.wcu) / s.sends };
  };
  const idle = r.events?.idle;
  const queries = idle?.meter.all.byCommand.QueryCommand ?? 0;
  const queryUnits = idle?.meter.all.unitsByCommand.QueryCommand ?? 0;
  const reads = r.messages?.reads.filter((x) => x.requests > 0) ?? [];
  const typingRow = r.typing?.rows.find((x) => x.pollCount > 0);
  const reg = r.events?.register;
  const s10 = sendAt(10);
  const s100 = sendAt(100);
  return {
    holdMs: config.LONGPOLL_HOLD_MS,
    recheckMs: config.LONGPOLL_RECHECK_MS,
    idlePoll:
      idle && idle.polls > 0
        ? measured({
            otherReadUnits: (idle.meter.all.rcu - queryUnits) / idle.polls,
            writeUnits: idle.meter.all.wcu / idle.polls,
            readUnitsPerQuery: Math.max(0.5, queries > 0 ? queryUnits / queries : 0),
          })
        : fallback({ otherReadUnits: 3, writeUnits: 2, readUnitsPerQuery: 0.5 }),
    rateLimitWcu: r.limits ? measured(Math.max(0, r.limits.on.wcu - r.limits.off.wcu)) : fallback(1),
    send10: s10 ? measured(s10) : fallback({ readUnits: 6, writeUnits: 48 }),
    send100: s100 ? measured(s100) : fallback({ readUnits: 6, writeUnits: 453 }),
    wokenPoll: typingRow
      ? measured({ readUnits: typingRow.polls.all.rcu / typingRow.pollCount, writeUnits: typingRow.polls.all.wcu / typingRow.pollCount })
      : fallback({ readUnits: 4, writeUnits: 2 }),
    read:
      reads.length > 0
        ? measured({
            readUnits: reads.reduce((s, x) => s + x.meter.request.rcu / x.requests, 0) / reads.length,
            writeUnits: reads.reduce((s, x) => s + x.meter.request.wcu / x.requests, 0) / reads.length,
          })
        : fallback({ readUnits: 60, writeUnits: 0 }),
    register:
      reg && reg.latency.count > 0
        ? measured({ readUnits: reg.meter.all.rcu / reg.latency.count, writeUnits: reg.meter.all.wcu / reg.latency.count })
        : fallback({ readUnits: 10, writeUnits: 1 }),
  };
}

/** Every figure of the report, computed from the inputs (no rendering). */
export interface CostReport {
  inputs: CostInputs;
  clientHour: Cost;
  clientHourMessagesOnly: Cost;
  clientHourHold25: Cost;
  per1000: { members: number; cost: Cost }[];
  userMonth: { users: number; activity: Activity; org: Cost; perUser: number }[];
  userMonthAt50Hold25: number;
  idle: { compute: Cost; other: Cost };
}

/** Computes the report from the inputs and a price table. */
export function computeCostReport(inputs: CostInputs, prices: Prices = AWS_PRICES): CostReport {
  const mem = FUNCTION_MEMORY_MB;
  const limitWcu = inputs.rateLimitWcu.value;
  const poll = (holdMs: number, typing: boolean): IdlePoll => ({
    memoryMb: mem.events,
    holdMs,
    recheckMs: inputs.recheckMs,
    otherReadUnits: inputs.idlePoll.value.otherReadUnits,
    writeUnits: inputs.idlePoll.value.writeUnits + limitWcu,
    readUnitsPerQuery: inputs.idlePoll.value.readUnitsPerQuery,
    typing,
  });
  const woken = requestCost({ memoryMb: mem.events, seconds: 0, readUnits: inputs.wokenPoll.value.readUnits, writeUnits: inputs.wokenPoll.value.writeUnits + limitWcu }, prices);
  const point = (members: number, w: { readUnits: number; writeUnits: number }): SendPoint => ({
    members,
    send: requestCost({ memoryMb: mem.messages, seconds: ASSUMED_SECONDS.send, readUnits: w.readUnits, writeUnits: w.writeUnits + limitWcu }, prices),
    wokenPoll: woken,
  });
  const p10 = point(10, inputs.send10.value);
  const p100 = point(100, inputs.send100.value);
  const unit = (clientHour: number) => ({
    clientHour,
    send: (members: number) => interpolateSend(p10, p100, members),
    read: requestCost({ memoryMb: mem.messages, seconds: ASSUMED_SECONDS.read, readUnits: inputs.read.value.readUnits, writeUnits: inputs.read.value.writeUnits + limitWcu }, prices).total,
    register: requestCost(
      { memoryMb: mem.events, seconds: ASSUMED_SECONDS.register, readUnits: inputs.register.value.readUnits, writeUnits: inputs.register.value.writeUnits + limitWcu },
      prices,
    ).total,
    presence: requestCost(
      { memoryMb: mem.presence, seconds: ASSUMED_SECONDS.presence, readUnits: ASSUMED_PRESENCE_UNITS.readUnits, writeUnits: ASSUMED_PRESENCE_UNITS.writeUnits + limitWcu },
      prices,
    ).total,
  });
  // Users' clients (web, mobile) take stream typing: their polls read the typing log too.
  const clientHour = clientHourCost(poll(inputs.holdMs, true), prices);
  const clientHourHold25 = clientHourCost(poll(25_000, true), prices);
  const userMonth = [10, 50, 500].map((users) => {
    const activity = activityFor(users);
    const org = orgMonthCost(activity, unit(clientHour.total));
    return { users, activity, org, perUser: org.total / users };
  });
  return {
    inputs,
    clientHour,
    clientHourMessagesOnly: clientHourCost(poll(inputs.holdMs, false), prices),
    clientHourHold25,
    per1000: [p10, p100].map((p) => ({ members: p.members, cost: scaleCost(sendCost(p), 1000) })),
    userMonth,
    userMonthAt50Hold25: orgMonthCost(activityFor(50), unit(clientHourHold25.total)).total / 50,
    idle: idleMonthCost({ ...IDLE_MONTH, invocationSeconds: ASSUMED_SECONDS.sweep, memoryMb: mem.worker }, prices),
  };
}

const usd = (x: number) => (x === 0 ? "0" : x < 0.01 ? x.toFixed(5) : x < 10 ? x.toFixed(4) : x.toFixed(2));

function verdict(value: number, target: number | undefined, cost: Cost): string {
  if (target === undefined) {
    const d = dominantTerm(cost);
    return `largest term: ${d.term} ${fmt(d.share * 100, 0)}%`;
  }
  const t = againstTarget(value, target);
  if (t.met) return "met";
  const d = dominantTerm(cost);
  return `missed by $${usd(t.gap)} (${Number.isFinite(t.gapShare) ? `${fmt(t.gapShare * 100, 0)}%` : "any amount"}); ${d.term} is ${fmt(d.share * 100, 0)}% of the total`;
}

function termsTable(title: string, c: Cost): string {
  return renderTable(
    title,
    ["term", "quantity", "unit", "$", "share"],
    c.terms.map((t) => [t.term, fmt(t.quantity, t.quantity < 10 ? 2 : 0), t.unit, usd(t.dollars), `${fmt((100 * t.dollars) / (c.total || 1), 1)}%`] as Cell[]),
    [`total $${usd(c.total)}`],
  );
}

/** Renders the cost report. */
export function renderCost(r: CostReport): string {
  const i = r.inputs;
  const at50 = r.userMonth.find((u) => u.users === 50)!;
  const rows: Cell[][] = [
    ["connected client-hour (takes stream typing)", usd(r.clientHour.total), `≤ ${COST_TARGETS.clientHour}`, verdict(r.clientHour.total, COST_TARGETS.clientHour, r.clientHour)],
    ["connected client-hour (event_types=[message])", usd(r.clientHourMessagesOnly.total), `≤ ${COST_TARGETS.clientHour}`, verdict(r.clientHourMessagesOnly.total, COST_TARGETS.clientHour, r.clientHourMessagesOnly)],
    ...r.per1000.map((x) => [`1,000 messages to ${x.members}-member streams`, usd(x.cost.total), "-", verdict(x.cost.total, undefined, x.cost)] as Cell[]),
    ...r.userMonth.map(
      (u) =>
        [
          `active user-month, ${u.users} users ($${usd(u.org.total)} a month)`,
          usd(u.perUser),
          u.users === 50 ? `≤ ${COST_TARGETS.userMonthAt50}` : "-",
          verdict(u.perUser, u.users === 50 ? COST_TARGETS.userMonthAt50 : undefined, u.org),
        ] as Cell[],
    ),
    ["idle month, compute (two daily sweeps)", usd(r.idle.compute.total), "$0", r.idle.compute.total < 0.01 ? "met (under a cent)" : verdict(r.idle.compute.total, 0, r.idle.compute)],
    ["idle month, SQS receives of the event source", usd(r.idle.other.total), "-", "within SQS's free million a month"],
  ];
  const src = (m: Measured<unknown>) => (m.measured ? "measured" : "NOT measured in this run: last full run's figure");
  const notes = [
    pricesLine(),
    `Inputs: events ${FUNCTION_MEMORY_MB.events} MB, messages ${FUNCTION_MEMORY_MB.messages} MB, presence ${FUNCTION_MEMORY_MB.presence} MB (infra/function-memory.ts);`,
    `  LONGPOLL_HOLD_MS ${i.holdMs}, LONGPOLL_RECHECK_MS ${i.recheckMs} (shared/config.ts defaults); rate limits on: +${fmt(i.rateLimitWcu.value, 2)} WRU per request (${src(i.rateLimitWcu)}).`,
    `  idle poll besides log reads: ${fmt(i.idlePoll.value.otherReadUnits, 2)} RRU, ${fmt(i.idlePoll.value.writeUnits, 2)} WRU; ${fmt(i.idlePoll.value.readUnitsPerQuery, 2)} RRU per log Query (${src(i.idlePoll)}).`,
    `  send to 10: ${fmt(i.send10.value.readUnits, 1)} RRU, ${fmt(i.send10.value.writeUnits, 1)} WRU (${src(i.send10)}); to 100: ${fmt(i.send100.value.readUnits, 1)} RRU, ${fmt(i.send100.value.writeUnits, 1)} WRU (${src(i.send100)}); jobs included.`,
    `  woken poll per member: ${fmt(i.wokenPoll.value.readUnits, 2)} RRU, ${fmt(i.wokenPoll.value.writeUnits, 2)} WRU (${src(i.wokenPoll)}, the typing part's polls); a Lambda and an HTTP API request each.`,
    `  history page ${fmt(i.read.value.readUnits, 1)} RRU (${src(i.read)}, mean of the narrows); register ${fmt(i.register.value.readUnits, 1)} RRU, ${fmt(i.register.value.writeUnits, 1)} WRU (${src(i.register)}).`,
    `Assumed (not measurable locally): billed seconds send ${ASSUMED_SECONDS.send}, history page ${ASSUMED_SECONDS.read}, register ${ASSUMED_SECONDS.register}, presence ${ASSUMED_SECONDS.presence};`,
    `  presence ping ${ASSUMED_PRESENCE_UNITS.readUnits} RRU + ${ASSUMED_PRESENCE_UNITS.writeUnits} WRU. DynamoDB Local reports 0 RCU for reads that find nothing, so measured reads are a lower bound.`,
    `User-month activity (per user): ${at50.activity.workingDaysPerMonth} working days, ${at50.activity.connectedHoursPerDay} h connected, ${at50.activity.messagesPerDay} messages, ${at50.activity.readsPerDay} history pages,`,
    `  ${at50.activity.registersPerDay} registers a day, a presence ping a minute; stream members ${r.userMonth.map((u) => `${u.activity.streamMembers} at ${u.users} users`).join(", ")}.`,
    `Lever, not applied: LONGPOLL_HOLD_MS 25000 (API Gateway allows 30 s): client-hour $${usd(r.clientHourHold25.total)} (${fmt((100 * (r.clientHourHold25.total - r.clientHour.total)) / r.clientHour.total, 1)}%),`,
    `  50-user month $${usd(r.userMonthAt50Hold25)} per user. The duration term does not move: a connected hour is 3,600 billed seconds at any hold.`,
  ];
  return [
    renderTable("Cost report: this run's counts × AWS prices", ["line", "$", "target", "result"], rows, notes),
    termsTable("Connected client-hour by term (takes stream typing)", r.clientHour),
    termsTable("50 active users, one month, by activity", at50.org),
  ].join("\n\n");
}
