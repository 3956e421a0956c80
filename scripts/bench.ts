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
 *
 * Flags: see `npm run bench -- --help` (`--quick` is a ~2.5-minute smoke run).
 * Only 127.0.0.1 is contacted. The run always ends: every loop is bounded,
 * and a hard deadline (`--max-minutes`) exits with code 2.
 * docs/performance.md explains the numbers.
 */
import { writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { createLogger } from "../shared/logger.js";
import { parseSizes, sizesLine, USAGE, type Sizes } from "./bench/args.js";
import { DriverWorker } from "./bench/drivers.js";
import { liveStreamNames, renderEvents, runEventsPart, type EventsResult } from "./bench/part-events.js";
import { LIFE_STREAMS, renderLife, runLifePart, type LifeResult } from "./bench/part-life.js";
import { renderLimits, runLimitsPart, type LimitsResult } from "./bench/part-limits.js";
import { LAMBDA_STREAM, renderLambda, runLambdaPart, type LambdaResult } from "./bench/part-lambda.js";
import { MESSAGE_STREAMS, renderMessages, runMessagesPart, type MessagesResult } from "./bench/part-messages.js";
import { renderTyping, runTypingPart, typingStreamName, type TypingResult } from "./bench/part-typing.js";
import { machineLine, startBenchStack, type BenchStack } from "./bench/setup.js";

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
  process.exit(2);
}, sizes.maxMinutes * 60_000);
deadline.unref();

let bench: BenchStack | undefined;
let driver: DriverWorker | undefined;
let exitCode = 0;
const results: {
  messages?: MessagesResult;
  events?: EventsResult;
  life?: LifeResult;
  limits?: LimitsResult;
  lambda?: LambdaResult;
  typing?: TypingResult;
} = {};
const sections: string[] = [];
try {
  log("starting the local stack");
  const streamNames = [
    ...(sizes.parts.has("messages") ? Object.values(MESSAGE_STREAMS) : []),
    ...(sizes.parts.has("events") ? liveStreamNames(sizes.eventStreams) : []),
    ...(sizes.parts.has("life") ? Object.values(LIFE_STREAMS) : []),
    ...(sizes.parts.has("lambda") ? [LAMBDA_STREAM] : []),
    ...(sizes.parts.has("typing") ? sizes.typingSubscribers.map(typingStreamName) : []),
  ];
  bench = await startBenchStack(streamNames);
  driver = new DriverWorker();
  if (sizes.parts.has("messages")) {
    results.messages = await runMessagesPart(bench, driver, sizes, log);
    sections.push(renderMessages(results.messages, sizes));
  }
  if (sizes.parts.has("events")) {
    results.events = await runEventsPart(bench, driver, sizes, log);
    sections.push(renderEvents(results.events, sizes));
  }
  if (sizes.parts.has("life")) {
    results.life = await runLifePart(bench, sizes, log);
    sections.push(renderLife(results.life, sizes));
  }
  if (sizes.parts.has("typing")) {
    results.typing = await runTypingPart(bench, sizes, log);
    sections.push(renderTyping(results.typing));
  }
  results.limits = await runLimitsPart(bench, driver, log);
  sections.push(renderLimits(results.limits));
  if (sizes.parts.has("lambda")) {
    results.lambda = await runLambdaPart(bench, sizes, log);
    sections.push(renderLambda(results.lambda));
  }
} catch (err) {
  exitCode = 1;
  log(`bench failed: ${(err as Error).stack ?? String(err)}`);
} finally {
  const header = [
    "Zulip-compatible server on the local stack: benchmark",
    `machine: ${machineLine()}`,
    `sizes:   ${sizesLine(sizes)}`,
    `command: npm run bench -- ${process.argv.slice(2).join(" ")}`.trimEnd(),
    `elapsed: ${elapsed().trim()}`,
    `load:    ${load(loadAtStart)} at start, ${load(loadavg())} at end (1/5/15-minute averages; other processes on this machine share its cores)`,
  ].join("\n");
  console.log(`\n${header}\n\n${sections.join("\n\n")}\n`);
  if (sizes.json) {
    const replacer = (_k: string, v: unknown) => (v instanceof Set ? [...v] : v);
    await writeFile(sizes.json, JSON.stringify({ machine: machineLine(), sizes, results }, replacer, 2));
  }
  await driver?.close().catch(() => undefined);
  // Stopping the stack ends the server and DynamoDB Local; long polls still held
  // server-side then fail on their next read, which is expected: silence them.
  if (bench) bench.stack.deps.log = createLogger("silent");
  await Promise.race([bench?.stack.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
  process.exit(exitCode);
}
