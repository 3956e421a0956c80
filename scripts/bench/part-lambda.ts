/**
 * Part "lambda": each API function as Lambda runs it — its deployed bundle
 * (built with the CDK's esbuild options, infra/bundling.ts) loaded in a
 * fresh Node process that handles one request at a time against the bench's
 * DynamoDB Local and queue — measuring what decides its memory size:
 *
 * - CPU time per request (`process.cpuUsage` around each handler call; the
 *   process does nothing else, so it is the request's own CPU, AWS SDK
 *   included). Lambda gives CPU in proportion to memory (1,769 MB = one
 *   vCPU), so these milliseconds set both latency and cost;
 * - peak RSS (`process.resourceUsage().maxRSS`) and peak V8 heap, against
 *   the memory size (Lambda's runtime itself takes a few MB more);
 * - the bundle's load time (the cold start's init phase, on this machine).
 *
 * The `events` process holds one real idle long poll (no waker: it re-reads
 * every `LONGPOLL_RECHECK_MS` like a Lambda) before its short polls.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { esbuildOptions, type FunctionFolder } from "../../infra/bundling.js";
import { toApiGatewayEvent } from "../../infra/local/adapter.js";
import type { BenchStack } from "./setup.js";
import type { Sizes } from "./args.js";
import { fmt, renderTable } from "./table.js";

/** The stream the `messages` probe sends to and reads (created by the bench's setup, the owner subscribed). */
export const LAMBDA_STREAM = "lambda probe";

/** One request of a function's script: `__QUEUE_ID__` in the URL takes the queue of the process's last register. */
interface ScriptedRequest {
  method: string;
  url: string;
  form?: Record<string, string>;
  /** Times it runs (after the first, cold, call). */
  repeat: number;
}

/** Per route of one function: calls, mean warm CPU and wall time, the cold call's. */
export interface RouteCpu {
  route: string;
  calls: number;
  statuses: number[];
  coldCpuMs: number;
  warmCpuMs: number;
  warmWallMs: number;
}

export interface FunctionProbe {
  folder: FunctionFolder;
  loadMs: number;
  rssAfterLoadMb: number;
  maxRssMb: number;
  maxHeapMb: number;
  routes: RouteCpu[];
}

export interface LambdaResult {
  functions: FunctionProbe[];
  failures: string[];
}

/** What the child process runs: load the bundle, run the script, print one JSON line. */
const CHILD = `
const [bundle, scriptFile] = process.argv.slice(1);
const fs = await import("node:fs");
const script = JSON.parse(fs.readFileSync(scriptFile, "utf8"));
let maxHeap = 0;
const sample = () => { maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed); };
const sampler = setInterval(sample, 50);
const t0 = performance.now();
const { handler } = await import(bundle);
const loadMs = performance.now() - t0;
const rssAfterLoad = process.memoryUsage().rss;
let queueId = "";
const calls = [];
for (const step of script) {
  for (let i = 0; i <= step.repeat; i++) {
    const event = JSON.parse(JSON.stringify(step.event).replaceAll("__QUEUE_ID__", queueId));
    const context = { awsRequestId: String(i), getRemainingTimeInMillis: () => 29000, callbackWaitsForEmptyEventLoop: false };
    const c0 = process.cpuUsage(); const w0 = performance.now();
    const res = await handler(event, context);
    const c = process.cpuUsage(c0); const wall = performance.now() - w0;
    sample();
    try { const body = JSON.parse(res.isBase64Encoded ? Buffer.from(res.body, "base64").toString() : res.body); if (body.queue_id) queueId = body.queue_id; } catch {}
    calls.push({ route: step.name, status: res.statusCode, cpuMs: (c.user + c.system) / 1000, wallMs: wall, cold: i === 0 });
  }
}
clearInterval(sampler);
console.log(JSON.stringify({ loadMs, rssAfterLoad, maxRss: process.resourceUsage().maxRSS * 1024, maxHeap, calls }));
process.exit(0);
`;

/** The requests each probed function handles, in order. */
function scripts(sizes: Sizes, stream: string): Partial<Record<FunctionFolder, ScriptedRequest[]>> {
  const n = sizes.quick ? 5 : 30;
  const narrow = JSON.stringify([{ operator: "channel", operand: stream }]);
  return {
    unauthenticated: [{ method: "GET", url: "/api/v1/server_settings", repeat: n }],
    users: [
      { method: "GET", url: "/api/v1/users/me", repeat: n },
      { method: "GET", url: "/api/v1/users", repeat: n },
    ],
    streams: [
      { method: "GET", url: "/api/v1/users/me/subscriptions", repeat: n },
      { method: "GET", url: "/api/v1/streams", repeat: n },
    ],
    messages: [
      { method: "POST", url: "/api/v1/messages", form: { type: "stream", to: stream, topic: "lambda probe", content: "Probe **message** with a :smile: and a [link](https://example.com)." }, repeat: n },
      { method: "GET", url: `/api/v1/messages?anchor=newest&num_before=50&num_after=0&narrow=${encodeURIComponent(narrow)}`, repeat: n },
    ],
    events: [
      { method: "POST", url: "/api/v1/register", form: { event_types: JSON.stringify(["message", "presence", "typing"]) }, repeat: 0 },
      // One real idle poll: held for LONGPOLL_HOLD_MS, re-reading every LONGPOLL_RECHECK_MS.
      { method: "GET", url: "/api/v1/events?queue_id=__QUEUE_ID__&last_event_id=-1", repeat: 0 },
      { method: "GET", url: "/api/v1/events?queue_id=__QUEUE_ID__&last_event_id=-1&dont_block=true", repeat: n },
      { method: "POST", url: "/api/v1/register", form: {}, repeat: Math.min(n, 10) },
    ],
    presence: [{ method: "POST", url: "/api/v1/users/me/presence", form: { status: "active" }, repeat: n }],
    realm: [{ method: "GET", url: "/api/v1/user_groups", repeat: n }],
    fallback: [{ method: "GET", url: "/api/v1/no/such/route", repeat: n }],
  };
}

function runChild(bundle: string, scriptFile: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, bundle, scriptFile], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.trim().split("\n").at(-1)!);
      else reject(new Error(`exit ${code}: ${err.slice(-500)}`));
    });
  });
}

/** Runs every probed function's script in a process of its own, one after the other. */
export async function runLambdaPart(bench: BenchStack, sizes: Sizes, log: (line: string) => void): Promise<LambdaResult> {
  const dir = await mkdtemp(path.join(tmpdir(), "zs-bench-lambda-"));
  const config = bench.stack.deps.config as unknown as Record<string, unknown>;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...Object.fromEntries(Object.entries(config).filter(([k, v]) => /^[A-Z_]+$/.test(k) && v !== undefined).map(([k, v]) => [k, String(v)])),
    LONGPOLL_RECHECK_MS: "1000",
    LOG_LEVEL: "error",
    RATE_LIMITS: "off",
    // What Lambda puts in every function's environment.
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    AWS_SESSION_TOKEN: "local",
    AWS_REGION: "us-east-1",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
  const host = String(config.ROOT_DOMAIN);
  const owner = bench.owner;
  const authorization = `Basic ${Buffer.from(`${owner.delivery_email}:${owner.api_key}`).toString("base64")}`;
  const stream = bench.streams.get(LAMBDA_STREAM)?.name ?? LAMBDA_STREAM;
  const functions: FunctionProbe[] = [];
  const failures: string[] = [];
  try {
    for (const [folder, steps] of Object.entries(scripts(sizes, stream)) as [FunctionFolder, ScriptedRequest[]][]) {
      try {
        const out = path.join(dir, folder);
        await esbuild.build({ ...esbuildOptions(folder, out), sourcemap: false, logLevel: "silent" });
        const script = steps.map((s) => {
          const body = s.form ? Buffer.from(new URLSearchParams(s.form).toString()) : Buffer.alloc(0);
          const headers: Record<string, string> = { host, authorization, "user-agent": "bench-lambda-probe" };
          if (s.form) headers["content-type"] = "application/x-www-form-urlencoded";
          const { event } = toApiGatewayEvent({ method: s.method, url: s.url, headers }, body);
          return { name: `${s.method} ${s.url.split("?")[0]!.replace("/api/v1", "")}${s.url.includes("dont_block") ? " (dont_block)" : ""}`, event, repeat: s.repeat };
        });
        const scriptFile = path.join(out, "script.json");
        await writeFile(scriptFile, JSON.stringify(script));
        log(`lambda: ${folder} (${script.length} routes)`);
        const raw = JSON.parse(await runChild(path.join(out, "index.mjs"), scriptFile, env)) as {
          loadMs: number;
          rssAfterLoad: number;
          maxRss: number;
          maxHeap: number;
          calls: { route: string; status: number; cpuMs: number; wallMs: number; cold: boolean }[];
        };
        const routes = new Map<string, RouteCpu & { warm: number }>();
        for (const c of raw.calls) {
          const r = routes.get(c.route) ?? { route: c.route, calls: 0, statuses: [], coldCpuMs: 0, warmCpuMs: 0, warmWallMs: 0, warm: 0 };
          r.calls++;
          if (!r.statuses.includes(c.status)) r.statuses.push(c.status);
          if (c.cold) r.coldCpuMs = c.cpuMs;
          else {
            r.warm++;
            r.warmCpuMs += c.cpuMs;
            r.warmWallMs += c.wallMs;
          }
          routes.set(c.route, r);
        }
        const mb = (b: number) => b / 2 ** 20;
        functions.push({
          folder,
          loadMs: raw.loadMs,
          rssAfterLoadMb: mb(raw.rssAfterLoad),
          maxRssMb: mb(raw.maxRss),
          maxHeapMb: mb(raw.maxHeap),
          routes: [...routes.values()].map(({ warm, ...r }) => ({
            ...r,
            warmCpuMs: warm > 0 ? r.warmCpuMs / warm : r.coldCpuMs,
            warmWallMs: warm > 0 ? r.warmWallMs / warm : Number.NaN,
          })),
        });
      } catch (err) {
        failures.push(`${folder}: ${(err as Error).message}`);
        log(`lambda: ${folder} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { functions, failures };
}

export function renderLambda(r: LambdaResult): string {
  const rows = r.functions.flatMap((f) =>
    f.routes.map((route, i) => [
      i === 0 ? f.folder : "",
      route.route,
      route.statuses.join("/"),
      fmt(route.coldCpuMs, 1),
      fmt(route.warmCpuMs, 2),
      fmt(route.warmWallMs, 1),
      i === 0 ? fmt(f.loadMs, 0) : "",
      i === 0 ? fmt(f.rssAfterLoadMb, 0) : "",
      i === 0 ? fmt(f.maxRssMb, 0) : "",
      i === 0 ? fmt(f.maxHeapMb, 0) : "",
    ]),
  );
  return renderTable(
    "Lambda functions: each bundle in a process of its own, one request at a time",
    ["function", "route", "status", "cold CPU ms", "warm CPU ms", "warm wall ms", "load ms", "RSS loaded MB", "peak RSS MB", "peak heap MB"],
    rows,
    [
      "CPU ms: process.cpuUsage (user + system) around the handler call, this machine's cores; Lambda at M MB gets M/1769 of a vCPU,",
      "  so a request's billed time is at least CPU ms × 1769/M. Cold: the process's first call of the route (lazy initialisation).",
      "peak RSS: the process's maximum resident set (Node, the bundle, the requests); the Lambda runtime adds a few MB.",
      ...r.failures.map((f) => `FAILED ${f}`),
    ],
  );
}
