import type { Store } from "../../shared/data/client.js";

/**
 * Counts DynamoDB work without touching shared code: a middleware on the
 * local stack's document client asks every command for
 * `ReturnConsumedCapacity: "TOTAL"` and adds up what comes back, along with
 * the number of calls (round trips).
 *
 * Each call is attributed to the deferred-work consumer when one of its
 * (async) stack frames is the job dispatcher `runJob`
 * (`shared/deferred/jobs.ts`), else to the request path. V8 keeps `await`
 * callers in stack traces, so this holds through the data layer's
 * `Promise.all`s; it is what lets the bench print "units in the request"
 * and "units in SQS jobs" separately while both run at once.
 */

/** Which side of the system made a DynamoDB call. */
export type Origin = "request" | "deferred";

/** Totals of one origin (or of everything). */
export interface Totals {
  /** Round trips. */
  calls: number;
  /** Read capacity units (strongly consistent 4 KB = 1, eventually consistent = 0.5). */
  rcu: number;
  /** Write capacity units (1 KB = 1, every index write included). */
  wcu: number;
  /** Calls per command name, e.g. `QueryCommand`. */
  byCommand: Record<string, number>;
  /** Capacity units (read or write, whichever the command consumes) per command name. */
  unitsByCommand: Record<string, number>;
  /** Calls that threw (conditional-check failures included). */
  errors: number;
  /**
   * Bytes of the write requests (their JSON input: items put, keys and
   * values of updates and deletes): what the client sent to be written.
   * An UpdateItem sends only its changes, though DynamoDB rewrites (and
   * charges) the whole item and every index holding it: see `wcu`.
   */
  writeBytes: number;
}

/** A point-in-time copy of the counters; subtract two with {@link diff}. */
export interface MeterSnapshot {
  at: number;
  request: Totals;
  deferred: Totals;
}

const READ_COMMANDS = new Set([
  "GetCommand",
  "QueryCommand",
  "ScanCommand",
  "BatchGetCommand",
  "TransactGetCommand",
  "GetItemCommand",
  "BatchGetItemCommand",
  "TransactGetItemsCommand",
]);

function emptyTotals(): Totals {
  return { calls: 0, rcu: 0, wcu: 0, byCommand: {}, unitsByCommand: {}, errors: 0, writeBytes: 0 };
}

function copy(t: Totals): Totals {
  return { ...t, byCommand: { ...t.byCommand }, unitsByCommand: { ...t.unitsByCommand } };
}

type Consumed = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };

/** Adds consumed capacity (one object, or a list for batch and transaction calls) to `t`. */
function addCapacity(t: Totals, command: string, consumed: Consumed | Consumed[] | undefined): void {
  if (!consumed) return;
  for (const c of Array.isArray(consumed) ? consumed : [consumed]) {
    const units = c.CapacityUnits ?? 0;
    t.unitsByCommand[command] = (t.unitsByCommand[command] ?? 0) + units;
    if (c.ReadCapacityUnits !== undefined || c.WriteCapacityUnits !== undefined) {
      t.rcu += c.ReadCapacityUnits ?? 0;
      t.wcu += c.WriteCapacityUnits ?? 0;
    } else if (READ_COMMANDS.has(command)) {
      t.rcu += units;
    } else {
      t.wcu += units;
    }
  }
}

/** JSON size of a write command's input without the table name and the capacity request (see `Totals.writeBytes`). */
function writeRequestBytes(input: Record<string, unknown>): number {
  const { TableName: _table, ReturnConsumedCapacity: _capacity, ...rest } = input;
  const json = JSON.stringify(rest, (_key, value: unknown) => (value instanceof Set ? [...value] : value));
  return json === undefined ? 0 : Buffer.byteLength(json);
}

type CallSiteLike = { getFunctionName(): string | null };

/** Structured call sites instead of a formatted stack: no source-map lookups, a fraction of the cost. */
function callSites(_err: Error, sites: CallSiteLike[]): CallSiteLike[] {
  return sites;
}

const DEFERRED_FRAMES = new Set(["runJob", "runWriteUserMessages", "runIndexMessage"]);

/** Whether the DynamoDB call being made now comes from a deferred job or a request (see the module comment). */
export function originOfCurrentCall(): Origin {
  const limit = Error.stackTraceLimit;
  const prepare = Error.prepareStackTrace;
  Error.stackTraceLimit = 60;
  Error.prepareStackTrace = callSites as typeof Error.prepareStackTrace;
  const holder: { stack?: unknown } = {};
  Error.captureStackTrace(holder);
  const sites = holder.stack as CallSiteLike[] | undefined;
  Error.prepareStackTrace = prepare;
  Error.stackTraceLimit = limit;
  return sites?.some((s) => DEFERRED_FRAMES.has(s.getFunctionName() ?? "")) ? "deferred" : "request";
}

/** The live counters of one document client. */
export class DynamoMeter {
  private readonly totals: Record<Origin, Totals> = { request: emptyTotals(), deferred: emptyTotals() };

  /**
   * Installs the counting middleware on `db` (step `initialize`, so it sees
   * the document client's input before marshalling). Call once.
   */
  install(db: Store["db"]): void {
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const command = (context as { commandName?: string }).commandName ?? "unknown";
        const origin = originOfCurrentCall();
        const input = args.input as Record<string, unknown>;
        // Transactions and batches accept it too; DescribeTable & co. ignore it harmlessly.
        input.ReturnConsumedCapacity = "TOTAL";
        const t = this.totals[origin];
        t.calls++;
        t.byCommand[command] = (t.byCommand[command] ?? 0) + 1;
        if (!READ_COMMANDS.has(command)) t.writeBytes += writeRequestBytes(input);
        try {
          const out = await next(args);
          addCapacity(t, command, (out.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity);
          return out;
        } catch (err) {
          t.errors++;
          throw err;
        }
      },
      { step: "initialize", name: "benchConsumedCapacity", priority: "high" },
    );
  }

  /** Copies the counters now. */
  snapshot(): MeterSnapshot {
    return { at: performance.now(), request: copy(this.totals.request), deferred: copy(this.totals.deferred) };
  }
}

/** Work done between two snapshots, per origin and in all; `elapsedMs` is wall time between them. */
export interface MeterDelta {
  elapsedMs: number;
  request: Totals;
  deferred: Totals;
  all: Totals;
}

function combine(a: Record<string, number>, b: Record<string, number>, sign: 1 | -1): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const n = (a[k] ?? 0) + sign * (b[k] ?? 0);
    if (n !== 0) out[k] = n;
  }
  return out;
}

function sub(a: Totals, b: Totals): Totals {
  return {
    calls: a.calls - b.calls,
    rcu: a.rcu - b.rcu,
    wcu: a.wcu - b.wcu,
    errors: a.errors - b.errors,
    writeBytes: a.writeBytes - b.writeBytes,
    byCommand: combine(a.byCommand, b.byCommand, -1),
    unitsByCommand: combine(a.unitsByCommand, b.unitsByCommand, -1),
  };
}

/** The sum of two totals. */
export function addTotals(a: Totals, b: Totals): Totals {
  return {
    calls: a.calls + b.calls,
    rcu: a.rcu + b.rcu,
    wcu: a.wcu + b.wcu,
    errors: a.errors + b.errors,
    writeBytes: a.writeBytes + b.writeBytes,
    byCommand: combine(a.byCommand, b.byCommand, 1),
    unitsByCommand: combine(a.unitsByCommand, b.unitsByCommand, 1),
  };
}

/** What happened between `before` and `after`. */
export function diff(after: MeterSnapshot, before: MeterSnapshot): MeterDelta {
  const request = sub(after.request, before.request);
  const deferred = sub(after.deferred, before.deferred);
  return { elapsedMs: after.at - before.at, request, deferred, all: addTotals(request, deferred) };
}
