/**
 * The bench's results as one object (also its `--json` output) and the
 * closing summary: which parts failed and how long each part's deferred
 * work took to drain before the next one started.
 */
import type { CostReport } from "./part-cost.js";
import type { EventsResult } from "./part-events.js";
import type { LambdaResult } from "./part-lambda.js";
import type { LifeResult } from "./part-life.js";
import type { LimitsResult } from "./part-limits.js";
import type { MessagesResult } from "./part-messages.js";
import type { TypingResult } from "./part-typing.js";

/** The bench's parts, in the order they run. */
export type PartName = "messages" | "events" | "life" | "typing" | "limits" | "lambda";

export interface BenchResults {
  messages?: MessagesResult;
  events?: EventsResult;
  life?: LifeResult;
  typing?: TypingResult;
  limits?: LimitsResult;
  lambda?: LambdaResult;
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
