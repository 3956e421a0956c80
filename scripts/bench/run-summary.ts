/**
 * The bench's results as one object (also its `--json` output) and the
 * closing summary: which parts failed and how long each part's deferred
 * work took to drain before the next one started.
 */
import type { CostReport } from "./part-cost.js";
import type { EventsResult } from "./part-events.js";
import type { FilesResult } from "./part-files.js";
import type { LambdaResult } from "./part-lambda.js";
import type { LifeResult } from "./part-life.js";
import type { LimitsResult } from "./part-limits.js";
import type { MessagesResult } from "./part-messages.js";
import type { TypingResult } from "./part-typing.js";
import type { WebResult } from "./part-web.js";
import type { ReceiptsResult } from "./part-receipts.js";
import type { ScheduledResult } from "./part-scheduled.js";
import type { LinkifiersResult } from "./part-linkifiers.js";

/** The bench's parts, in the order they run. */
export type PartName = "messages" | "events" | "life" | "typing" | "limits" | "lambda" | "files" | "web" | "receipts" | "scheduled" | "linkifiers";

export interface BenchResults {
  messages?: MessagesResult;
  events?: EventsResult;
  life?: LifeResult;
  typing?: TypingResult;
  limits?: LimitsResult;
  lambda?: LambdaResult;
  files?: FilesResult;
  web?: WebResult;
  receipts?: ReceiptsResult;
  scheduled?: ScheduledResult;
  linkifiers?: LinkifiersResult;
  cost?: CostReport;
  /** Error message of each part that failed. */
  failures: Partial<Record<PartName, string>>;
  /** After each part, how long its deferred-work backlog took to drain, ms (undefined: not within the bound). */
  drains: { after: PartName; ms: number | undefined }[];
}

/** The closing lines: elapsed time, load, failed parts, the drains between parts. */
export function renderRunSummary(r: BenchResults, elapsed: string, load: string): string {
  const failed = Object.entries(r.failures);
  const drains = r.drains.map((d) => `${d.after} ${d.ms === undefined ? "not drained within the bound" : `${(d.ms / 1000).toFixed(1)} s`}`);
  return [
    `elapsed: ${elapsed}`,
    `load:    ${load}`,
    `backlog drained after each part: ${drains.join(", ") || "-"}`,
    failed.length === 0 ? "parts failed: none" : `parts failed: ${failed.map(([name, msg]) => `${name} (${msg})`).join("; ")}`,
  ].join("\n");
}

/** What {@link runBenchPart} needs from the bench around it. */
export interface PartRunner {
  results: BenchResults;
  /** Prints a finished part's tables (stdout). */
  print: (text: string) => void;
  /** Progress lines (stderr). */
  log: (line: string) => void;
  /** Waits for the deferred-work backlog, bounded: milliseconds waited, or undefined at the bound. */
  drain: () => Promise<number | undefined>;
  /** The bound of {@link PartRunner.drain}, ms (for the log line). */
  drainBoundMs: number;
}

/**
 * Runs one part: prints its tables as soon as it ends, or its error (the
 * caller goes on with the next part), then waits, bounded, for the
 * deferred-work backlog it left so the next part starts on an idle stack.
 * @returns whether the part succeeded
 */
export async function runBenchPart<T>(r: PartRunner, name: PartName, run: () => Promise<T>, render: (result: T) => string): Promise<boolean> {
  const t = performance.now();
  let ok = true;
  try {
    const result = await run();
    (r.results as unknown as Record<string, unknown>)[name] = result;
    r.print(`${render(result)}\n`);
  } catch (err) {
    ok = false;
    const message = err instanceof Error ? err.message : String(err);
    r.results.failures[name] = message;
    r.log(`part ${name} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
    r.print(`Part ${name} FAILED after ${((performance.now() - t) / 1000).toFixed(0)} s: ${message}\n`);
  }
  const ms = await r.drain();
  r.results.drains.push({ after: name, ms });
  r.log(ms === undefined ? `after ${name}: backlog not drained within ${r.drainBoundMs / 1000} s; going on` : `after ${name}: backlog drained in ${(ms / 1000).toFixed(1)} s`);
  return ok;
}
