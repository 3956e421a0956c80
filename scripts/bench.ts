/**
 * `npm run bench`: starts the local stack (DynamoDB Local, the SQS
 * emulator, the HTTP adapter in front of the real Lambda handlers), loads
 * data through the data layer, drives the API over HTTP with concurrent
 * clients from a worker thread, and prints plain-text tables:
 *
 * - part 1 (messages): `POST /messages` to a 10-subscriber and a large
 *   stream, `GET /messages` on the usual narrows over a 100,000-message
 *   history, DynamoDB round trips and capacity units per operation, and
 *   DynamoDB Local's own rates for scale;
 * - part 2 (events): 500 long-polling clients — delivery latency from send
 *   to client, DynamoDB work per delivered event, and what an idle queue
 *   costs per minute;
 * - part 3 (life): edits, reactions and flags of one message (round trips
 *   with 100 and 5,000 messages of history), and the items per second of
 *   `POST /mark_all_as_read` and a `change_all` topic move until their SQS
 *   jobs drain;
 * - then, whatever the parts: the DynamoDB round trips a rate-limited
 *   request adds (limits switched on in process for a few requests), and
 *   the largest `GET /messages` and `POST /register` answers received.
 * - part 5 (lambda): each function's deployed bundle in a process of its
 *   own, one request at a time: CPU time per request, peak RSS and heap.
 * - part 4 (typing): a stream typing notification to 100 and 500
 *   subscribers, from the request until every recipient's queue has it.
 * - part "web": the web app in Chromium over the same history size: time
 *   from navigation to the newest messages painted (cold and warm cache) and
 *   the compressed JavaScript and CSS of the first screen.
 * - part "files": uploads (text, a photo-like JPEG, a small PNG), their
 *   thumbnail jobs, messages linking them and the file redirects: DynamoDB
 *   and S3 calls, latency, CPU, and the dollars of 1,000 image uploads.
 * - part "receipts": `GET /messages/{id}/read_receipts` of a message every
 *   subscriber of a large stream read: round trips, read units, latency.
 * - part "scheduled": `POST /scheduled_messages`, a `send_scheduled_message`
 *   job that finds its message not yet due, and one delivery: round trips,
 *   units, SQS sends and the dollars of 1,000 of each.
 * - part "linkifiers": `POST /messages` with 0, 10 and 100 organization
 *   linkifiers: latency, round trips (the same for every count) and units.
 *
 * - then the cost report: the counts measured above times AWS prices
 *   (`bench/prices.ts`), per connected client-hour, per 1,000 messages,
 *   per active user-month and for an idle month, against the targets.
 *
 * Each part prints its tables as soon as it ends; a part that fails prints
 * its error and the others still run; before the next part starts, the
 * deferred-work backlog drains (bounded wait, reported).
 *
 * Flags: see `npm run bench -- --help` (`--quick` is a ~2.5-minute smoke run).
 * Only 127.0.0.1 is contacted. The run always ends: every loop is bounded,
 * and a hard deadline (`--max-minutes`) exits with code 2.
 * docs/performance.md explains the numbers.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { createLogger } from "../shared/logger.js";
import { parseSizes, sizesLine, USAGE, type Sizes } from "./bench/args.js";
import { DriverWorker } from "./bench/drivers.js";
import { liveStreamNames, renderEvents, runEventsPart } from "./bench/part-events.js";
import { LIFE_STREAMS, renderLife, runLifePart } from "./bench/part-life.js";
import { renderLimits, runLimitsPart } from "./bench/part-limits.js";
import { LAMBDA_STREAM, renderLambda, runLambdaPart } from "./bench/part-lambda.js";
import { MESSAGE_STREAMS, renderMessages, runMessagesPart } from "./bench/part-messages.js";
import { renderTyping, runTypingPart, typingStreamName } from "./bench/part-typing.js";
import { FILES_STREAM, renderFiles, runFilesPart } from "./bench/part-files.js";
import { renderWeb, runWebPart, WEB_STREAM } from "./bench/part-web.js";
import { RECEIPTS_STREAM, renderReceipts, runReceiptsPart } from "./bench/part-receipts.js";
import { renderScheduled, runScheduledPart, SCHEDULED_STREAM } from "./bench/part-scheduled.js";
import { LINKIFIERS_STREAM, renderLinkifiers, runLinkifiersPart } from "./bench/part-linkifiers.js";
import { computeCostReport, costInputs, renderCost } from "./bench/part-cost.js";
import { renderRunSummary, runBenchPart, type BenchResults, type PartName } from "./bench/run-summary.js";
import { drainDeferred, machineLine, startBenchStack, type BenchStack } from "./bench/setup.js";

let sizes: Sizes;
try {
  const parsed = parseSizes(process.argv.slice(2));
  if (parsed === "help") {
    console.log(USAGE);
    process.exit(0);
  }
  sizes = parsed;
} catch (err) {
  console.error(`${(err as Error).message}\n\n${USAGE}`);
  process.exit(1);
}

const started = performance.now();
const loadAtStart = loadavg();
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`;
const log = (line: string) => process.stderr.write(`[${elapsed()}] ${line}\n`);

const deadline = setTimeout(() => {
  log(`hard deadline of ${sizes.maxMinutes} minutes reached; exiting`);
  console.log(`Hard deadline of ${sizes.maxMinutes} minutes reached after the parts printed above; the run stops here.\n`);
  try {
    // The cost report from the parts that ended (the others' inputs are marked as not measured).
    results.cost = computeCostReport(costInputs(results));
    console.log(`${renderCost(results.cost)}\n`);
    writeJson();
  } catch {
    // The tables and the results so far were written after the last part that ended.
  }
  process.exit(2);
}, sizes.maxMinutes * 60_000);
deadline.unref();

let bench: BenchStack | undefined;
let driver: DriverWorker | undefined;
let exitCode = 0;
const results: BenchResults = { failures: {}, drains: [] };

const header = [
  "Zulip-compatible server on the local stack: benchmark",
  `machine: ${machineLine()}`,
  `sizes:   ${sizesLine(sizes)}`,
  `command: npm run bench -- ${process.argv.slice(2).join(" ")}`.trimEnd(),
  `load:    ${load(loadAtStart)} at start (1/5/15-minute averages; other processes on this machine share its cores)`,
].join("\n");
console.log(`\n${header}\n`);

/** Writes the raw results so far (after every part, so a hard stop keeps them). */
function writeJson(): void {
  if (!sizes.json) return;
  const replacer = (_k: string, v: unknown) => (v instanceof Set ? [...v] : v);
  writeFileSync(sizes.json, JSON.stringify({ machine: machineLine(), sizes, results }, replacer, 2));
}

/** Runs one part (tables printed as it ends, a failure reported), then drains its backlog and saves the JSON. */
async function runPart<T>(name: PartName, run: () => Promise<T>, render: (r: T) => string): Promise<void> {
  const runner = {
    results,
    print: (text: string) => console.log(text),
    log,
    drain: () => drainDeferred(bench!.stack, sizes.drainTimeoutMs),
    drainBoundMs: sizes.drainTimeoutMs,
  };
  if (!(await runBenchPart(runner, name, run, render))) exitCode = 1;
  writeJson();
}

try {
  log("starting the local stack");
  const streamNames = [
    ...(sizes.parts.has("messages") ? Object.values(MESSAGE_STREAMS) : []),
    ...(sizes.parts.has("events") ? liveStreamNames(sizes.eventStreams) : []),
    ...(sizes.parts.has("life") ? Object.values(LIFE_STREAMS) : []),
    ...(sizes.parts.has("lambda") ? [LAMBDA_STREAM] : []),
    ...(sizes.parts.has("typing") ? sizes.typingSubscribers.map(typingStreamName) : []),
    ...(sizes.parts.has("files") ? [FILES_STREAM] : []),
    ...(sizes.parts.has("web") ? [WEB_STREAM] : []),
    ...(sizes.parts.has("receipts") ? [RECEIPTS_STREAM] : []),
    ...(sizes.parts.has("scheduled") ? [SCHEDULED_STREAM] : []),
    ...(sizes.parts.has("linkifiers") ? [LINKIFIERS_STREAM] : []),
  ];
  bench = await startBenchStack(streamNames);
  driver = new DriverWorker();
  const b = bench;
  const d = driver;
  if (sizes.parts.has("messages")) await runPart("messages", () => runMessagesPart(b, d, sizes, log), (r) => renderMessages(r, sizes));
  if (sizes.parts.has("events")) await runPart("events", () => runEventsPart(b, d, sizes, log), (r) => renderEvents(r, sizes));
  if (sizes.parts.has("life")) await runPart("life", () => runLifePart(b, sizes, log), (r) => renderLife(r, sizes));
  if (sizes.parts.has("typing")) await runPart("typing", () => runTypingPart(b, sizes, log), renderTyping);
  if (sizes.parts.has("files")) await runPart("files", () => runFilesPart(b, sizes, log), renderFiles);
  if (sizes.parts.has("receipts")) await runPart("receipts", () => runReceiptsPart(b, sizes, log), renderReceipts);
  if (sizes.parts.has("scheduled")) await runPart("scheduled", () => runScheduledPart(b, sizes, log), renderScheduled);
  if (sizes.parts.has("linkifiers")) await runPart("linkifiers", () => runLinkifiersPart(b, sizes, log), renderLinkifiers);
  await runPart("limits", () => runLimitsPart(b, d, log), renderLimits);
  if (sizes.parts.has("lambda")) await runPart("lambda", () => runLambdaPart(b, sizes, log), renderLambda);
  if (sizes.parts.has("web")) await runPart("web", () => runWebPart(b, sizes, log), renderWeb);
} catch (err) {
  exitCode = 1;
  log(`bench failed: ${(err as Error).stack ?? String(err)}`);
} finally {
  try {
    results.cost = computeCostReport(costInputs(results));
    console.log(`${renderCost(results.cost)}\n`);
  } catch (err) {
    exitCode = 1;
    log(`cost report failed: ${(err as Error).stack ?? String(err)}`);
  }
  console.log(renderRunSummary(results, elapsed().trim(), `${load(loadAtStart)} at start, ${load(loadavg())} at end`));
  writeJson();
  await driver?.close().catch(() => undefined);
  // Stopping the stack ends the server and DynamoDB Local; long polls still held
  // server-side then fail on their next read, which is expected: silence them.
  if (bench) bench.stack.deps.log = createLogger("silent");
  await Promise.race([bench?.stack.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
  process.exit(exitCode);
}
