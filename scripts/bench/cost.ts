/**
 * The cost model's arithmetic: pure functions from measured counts
 * (DynamoDB units, requests, Lambda memory and seconds) and a price table
 * (`prices.ts`) to dollars, each result split into named terms so the
 * report can say which one dominates. Unit-tested in `cost.test.ts`.
 */
import type { Prices } from "./prices.js";

/** One billed term of a cost: what, how much of it, and its dollars. */
export interface CostTerm {
  term: string;
  quantity: number;
  unit: string;
  dollars: number;
}

/** A cost as the sum of its terms. */
export interface Cost {
  terms: CostTerm[];
  total: number;
}

/** Builds a {@link Cost} from terms (terms of 0 quantity are kept: they show what is free). */
export function costOf(terms: CostTerm[]): Cost {
  return { terms, total: terms.reduce((s, t) => s + t.dollars, 0) };
}

/** Multiplies every term of a cost by `factor` (e.g. per operation → per 1,000 operations). */
export function scaleCost(c: Cost, factor: number): Cost {
  return costOf(c.terms.map((t) => ({ ...t, quantity: t.quantity * factor, dollars: t.dollars * factor })));
}

/** Adds costs term by term (terms of the same name are summed). */
export function sumCosts(costs: Cost[]): Cost {
  const byName = new Map<string, CostTerm>();
  for (const c of costs) {
    for (const t of c.terms) {
      const prev = byName.get(t.term);
      byName.set(t.term, prev ? { ...prev, quantity: prev.quantity + t.quantity, dollars: prev.dollars + t.dollars } : { ...t });
    }
  }
  return costOf([...byName.values()]);
}

/** The work of one API request, as billed. */
export interface RequestWork {
  /** Lambda memory of the function that serves it, MB. */
  memoryMb: number;
  /** Billed Lambda duration, seconds. */
  seconds: number;
  /** DynamoDB read request units (request and its deferred jobs). */
  readUnits: number;
  /** DynamoDB write request units (index writes included). */
  writeUnits: number;
}

/**
 * Dollars of one API request: a Lambda request, an HTTP API request, the
 * Lambda's GB-seconds and the DynamoDB units.
 */
export function requestCost(w: RequestWork, p: Prices): Cost {
  const gbSeconds = (w.memoryMb / 1024) * w.seconds;
  return costOf([
    { term: "Lambda duration", quantity: gbSeconds, unit: "GB-s", dollars: gbSeconds * p.lambdaGbSecond },
    { term: "Lambda requests", quantity: 1, unit: "requests", dollars: p.lambdaRequest },
    { term: "HTTP API requests", quantity: 1, unit: "requests", dollars: p.httpApiRequest },
    { term: "DynamoDB reads", quantity: w.readUnits, unit: "RRU", dollars: w.readUnits * p.dynamoReadUnit },
    { term: "DynamoDB writes", quantity: w.writeUnits, unit: "WRU", dollars: w.writeUnits * p.dynamoWriteUnit },
  ]);
}

/** What one idle long poll does, besides re-reading the event log. */
export interface IdlePoll {
  /** Events function memory, MB. */
  memoryMb: number;
  /** `LONGPOLL_HOLD_MS`: an idle poll is held (and billed) this long. */
  holdMs: number;
  /** `LONGPOLL_RECHECK_MS`: the held poll re-reads the log this often. */
  recheckMs: number;
  /** Read units of the poll's other calls (authentication, queue GetItem). */
  otherReadUnits: number;
  /** Write units of the poll (heartbeat save and its index entry, rate-limit counter). */
  writeUnits: number;
  /** Read units one re-read Query costs (DynamoDB's minimum is 0.5 for an eventually consistent read). */
  readUnitsPerQuery: number;
  /** Whether the queue takes stream typing events: one more Query (the realm's typing log) per read. */
  typing: boolean;
}

/** Event-log Queries of one held idle poll: the first read and one per re-read until the hold ends. */
export function queriesPerPoll(p: Pick<IdlePoll, "holdMs" | "recheckMs" | "typing">): number {
  return (1 + Math.floor(p.holdMs / p.recheckMs)) * (p.typing ? 2 : 1);
}

/**
 * Dollars of one connected, idle client for one hour: 3,600 s / hold polls,
 * each billed for its whole hold at the events function's memory.
 */
export function clientHourCost(poll: IdlePoll, p: Prices): Cost {
  const polls = 3_600_000 / poll.holdMs;
  const one = requestCost(
    {
      memoryMb: poll.memoryMb,
      seconds: poll.holdMs / 1000,
      readUnits: poll.otherReadUnits + queriesPerPoll(poll) * poll.readUnitsPerQuery,
      writeUnits: poll.writeUnits,
    },
    p,
  );
  return scaleCost(one, polls);
}

/** A send's measured work at a stream size, as a cost. */
export interface SendPoint {
  /** Stream members (every member's queue receives the event and its poll wakes). */
  members: number;
  /** Dollars of one send, request and deferred jobs. */
  send: Cost;
  /** Dollars of one recipient's woken poll. */
  wokenPoll: Cost;
}

/** Dollars of one send to a stream of `members`: the send plus one woken poll per member. */
export function sendCost(s: SendPoint): Cost {
  return sumCosts([s.send, scaleCost(s.wokenPoll, s.members)]);
}

/**
 * Dollars of one send to `members` members, on the line through two
 * measured sends (the send's own work grows with its audience: rows and
 * event copies), not below the smaller measurement.
 */
export function interpolateSend(a: SendPoint, b: SendPoint, members: number): number {
  const ca = sendCost(a).total;
  const cb = sendCost(b).total;
  if (a.members === b.members) return ca;
  const slope = (cb - ca) / (b.members - a.members);
  return Math.max(Math.min(ca, cb), ca + slope * (members - a.members));
}

/** How an organization's users use it, per user (the assumptions of a user-month). */
export interface Activity {
  users: number;
  workingDaysPerMonth: number;
  connectedHoursPerDay: number;
  /** Messages each user sends per working day, to streams of {@link Activity.streamMembers} members. */
  messagesPerDay: number;
  streamMembers: number;
  /** `GET /messages` pages per user per working day. */
  readsPerDay: number;
  /** `POST /register` per user per working day (client starts, reconnects). */
  registersPerDay: number;
  /** Presence pings per connected hour (Zulip's clients ping every 60 s). */
  presencePerHour: number;
}

/** Unit dollars a user-month is made of. */
export interface UnitCosts {
  clientHour: number;
  /** Dollars of one send to a stream of `members` members, woken polls included. */
  send: (members: number) => number;
  read: number;
  register: number;
  presence: number;
}

/** Dollars of an organization's month, split by activity; {@link Cost.total} / users is the user-month. */
export function orgMonthCost(a: Activity, u: UnitCosts): Cost {
  const days = a.users * a.workingDaysPerMonth;
  const hours = days * a.connectedHoursPerDay;
  const sends = days * a.messagesPerDay;
  const reads = days * a.readsPerDay;
  const registers = days * a.registersPerDay;
  const pings = hours * a.presencePerHour;
  return costOf([
    { term: "connected idle time", quantity: hours, unit: "client-hours", dollars: hours * u.clientHour },
    { term: `sends (${a.streamMembers}-member streams)`, quantity: sends, unit: "sends", dollars: sends * u.send(a.streamMembers) },
    { term: "presence pings", quantity: pings, unit: "pings", dollars: pings * u.presence },
    { term: "history reads", quantity: reads, unit: "pages", dollars: reads * u.read },
    { term: "registers", quantity: registers, unit: "registers", dollars: registers * u.register },
  ]);
}

/** What runs while nobody is connected. */
export interface IdleMonth {
  /** Scheduled invocations a month (the daily demo-organization sweep). */
  invocations: number;
  invocationSeconds: number;
  memoryMb: number;
  /** Requests a month the SQS event source's pollers make to an empty queue. */
  sqsRequests: number;
}

/** Dollars of a month without clients: compute (Lambda) and the queue's empty receives. */
export function idleMonthCost(m: IdleMonth, p: Prices): { compute: Cost; other: Cost } {
  const gbSeconds = m.invocations * m.invocationSeconds * (m.memoryMb / 1024);
  return {
    compute: costOf([
      { term: "Lambda duration", quantity: gbSeconds, unit: "GB-s", dollars: gbSeconds * p.lambdaGbSecond },
      { term: "Lambda requests", quantity: m.invocations, unit: "requests", dollars: m.invocations * p.lambdaRequest },
    ]),
    other: costOf([{ term: "SQS requests", quantity: m.sqsRequests, unit: "requests", dollars: m.sqsRequests * p.sqsRequest }]),
  };
}

/** The largest term of a cost and its share of the total (0–1). */
export function dominantTerm(c: Cost): { term: string; share: number } {
  const top = [...c.terms].sort((x, y) => y.dollars - x.dollars)[0];
  return { term: top?.term ?? "-", share: top && c.total > 0 ? top.dollars / c.total : 0 };
}

/**
 * A value against its target: met, or the gap in dollars and percent of the
 * target.
 */
export function againstTarget(value: number, target: number): { met: boolean; gap: number; gapShare: number } {
  const gap = value - target;
  return { met: gap <= 0, gap: Math.max(0, gap), gapShare: target > 0 ? Math.max(0, gap) / target : gap > 0 ? Infinity : 0 };
}
