/**
 * Part "files" of the bench: what uploads, thumbnails and messages linking
 * them cost, per operation — DynamoDB round trips and units (`meter.ts`),
 * S3 calls and bytes (`file-meter.ts`), latency, and the process's CPU
 * time — then the dollars of 1,000 image uploads (`files-cost.ts`).
 *
 * Everything runs one operation at a time, so a phase's totals divided by
 * its count are one operation's cost:
 *
 * 1. `POST /user_uploads` of a 100 KB text file, a photo-like 4000×3000
 *    JPEG (quality 80, ~1.7 MB; `bench-images.ts`), a 640×480 PNG and a
 *    5000×4000 screenshot-like PNG (~0.5 MB: 20 megapixels to decode). The `thumbnail` jobs the
 *    image uploads enqueue are held (the stack's `deps.deferred` is swapped
 *    for the phase), so the upload is measured alone;
 * 2. each held job run by the worker's `runJob` (→ `runThumbnail`) on the
 *    stack's deps, one at a time: its CPU,
 *    DynamoDB and S3 work per image size; then a few image uploads left to
 *    the local worker, timed until the queue drained (thumbnail ready);
 * 3. `POST /messages` to a stream without a link, linking a text upload,
 *    and linking an image whose thumbnail is ready;
 * 4. `GET /user_uploads/thumbnail/.../840x560.webp` and
 *    `GET /user_uploads/<path>` (302s to presigned URLs) by the uploader and
 *    by another subscriber (who may see it through the message).
 *
 * CPU is `process.cpuUsage()` around each operation: the HTTP client, the
 * handler and the in-process S3 emulator together (DynamoDB Local runs in
 * its own JVM), all threads (sharp's included); an upper bound of the
 * handler's own.
 */
import { runJob } from "../../functions/worker/jobs.js";
import type { DeferredWork } from "../../shared/deferred/deferred-work.js";
import type { DeferredJob } from "../../shared/deferred/jobs.js";
import { FUNCTION_MEMORY_MB } from "../../infra/function-memory.js";
import type { Sizes } from "./args.js";
import { patternPng, photoJpeg, screenshotPng } from "./bench-images.js";
import { scaleCost, type Cost } from "./cost.js";
import { diffFiles, s3Requests, type FileDelta } from "./file-meter.js";
import { estimatedLambdaSeconds, fileViewCost, imageUploadCost, type FileWork } from "./files-cost.js";
import { diff, type MeterDelta } from "./meter.js";
import { perOpCommands } from "./part-messages.js";
import { AWS_PRICES, s3PricesLine } from "./prices.js";
import { benchUser, createUsers, subscribeUsers, type BenchUser } from "./seed.js";
import { drainDeferred, type BenchStack } from "./setup.js";
import { summarize, type LatencySummary } from "./stats.js";
import { fmt, fmtMs, renderTable, type Cell } from "./table.js";

/** The stream the part's messages go to (created at setup). */
export const FILES_STREAM = "bench-files";

/** Bench users subscribed to {@link FILES_STREAM} besides its creator. */
const SUBSCRIBERS = 10;

/** SQS requests of one job: its SendMessageBatch entry, a ReceiveMessage (up to 10 jobs share one), a DeleteMessage. */
const SQS_REQUESTS_PER_JOB = 3;

/** One measured operation kind. */
export interface FilesOp {
  name: string;
  ops: number;
  errors: number;
  errorSamples: string[];
  latency: LatencySummary;
  /** Process CPU ms over all operations. */
  cpuMs: number;
  /** Wall ms over all operations. */
  wallMs: number;
  meter: MeterDelta;
  files: FileDelta;
}

export interface FilesResult {
  /** Bytes of each uploaded kind. */
  sizes: Record<UploadSpec["key"], number>;
  uploads: FilesOp[];
  thumbnails: FilesOp[];
  /** Image uploads left to the local worker: ms from the request until the queue drained. */
  worker: { name: string; latency: LatencySummary }[];
  sends: FilesOp[];
  serves: FilesOp[];
  cost: { photo1000: Cost; png1000: Cost; large1000: Cost; thumbnailView1000: Cost; photoView1000: Cost };
}

/** One kind of file the part uploads. */
interface UploadSpec {
  key: "text" | "photo" | "png" | "large";
  name: string;
  type: string;
  bytes: Uint8Array;
  /** Images: their size in pixels, for the tables. */
  pixels?: string;
}

const TEXT_LINE = "Bench notes, line after line of plain text.\n";

interface Sample {
  ms: number;
  status: number;
  body: string;
  location?: string;
}

/**
 * Measures `n` operations one at a time: latency each, CPU and wall time
 * over all, and the DynamoDB and S3 work until `settle` (e.g. a drain of
 * the jobs they enqueued) has resolved.
 */
async function measure(
  bench: BenchStack,
  name: string,
  n: number,
  op: (i: number) => Promise<Sample>,
  options: { ok?: number; settle?: () => Promise<unknown> } = {},
): Promise<{ row: FilesOp; samples: Sample[] }> {
  const m0 = bench.meter.snapshot();
  const f0 = bench.files.snapshot();
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const samples: Sample[] = [];
  for (let i = 0; i < n; i++) samples.push(await op(i));
  const cpu = process.cpuUsage(c0);
  const wallMs = performance.now() - w0;
  await options.settle?.();
  const bad = samples.filter((s) => s.status !== (options.ok ?? 200));
  return {
    samples,
    row: {
      name,
      ops: n,
      errors: bad.length,
      errorSamples: bad.slice(0, 3).map((s) => `${s.status} ${s.body.slice(0, 200)}`),
      latency: summarize(samples.map((s) => s.ms)),
      cpuMs: (cpu.user + cpu.system) / 1000,
      wallMs,
      meter: diff(bench.meter.snapshot(), m0),
      files: diffFiles(bench.files.snapshot(), f0),
    },
  };
}

const auth = (u: BenchUser) => `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString("base64")}`;

async function timed(url: string, init: RequestInit): Promise<Sample> {
  const t = performance.now();
  const res = await fetch(url, { ...init, redirect: "manual" });
  const body = await res.text();
  return { ms: performance.now() - t, status: res.status, body, location: res.headers.get("location") ?? undefined };
}

function upload(base: string, user: BenchUser, name: string, type: string, bytes: Uint8Array): Promise<Sample> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return timed(`${base}/api/v1/user_uploads`, { method: "POST", headers: { authorization: auth(user) }, body: form });
}

function sendMessage(base: string, user: BenchUser, content: string): Promise<Sample> {
  const body = new URLSearchParams({ type: "stream", to: FILES_STREAM, topic: "bench files", content });
  return timed(`${base}/api/v1/messages`, { method: "POST", headers: { authorization: auth(user) }, body });
}

/** Swaps the stack's deferred work for a holder that keeps the jobs; `release` puts the real one back. */
function holdDeferred(bench: BenchStack): { held: DeferredJob[]; release: () => void } {
  const deps = bench.stack.deps;
  const real = deps.deferred;
  const held: DeferredJob[] = [];
  const holder: DeferredWork = { enqueue: async (jobs) => void held.push(...jobs) };
  deps.deferred = holder;
  return { held, release: () => void (deps.deferred = real) };
}

/** Runs the files part. */
export async function runFilesPart(bench: BenchStack, sizes: Sizes, log: (line: string) => void): Promise<FilesResult> {
  const { stack, realm } = bench;
  const base = stack.url;
  const n = sizes.filesOps;
  const stream = bench.streams.get(FILES_STREAM)!;
  const users = await createUsers(stack.deps, realm, "files", SUBSCRIBERS);
  await subscribeUsers(stack.deps, stream, users);
  await drainDeferred(stack, 60_000);
  const [uploader, viewer] = users.map(benchUser) as [BenchUser, BenchUser];

  log("files: generating a 100 KB text file, a 4000x3000 JPEG, a 640x480 PNG and a 5000x4000 PNG");
  const files: UploadSpec[] = [
    { key: "text", name: "notes.txt", type: "text/plain", bytes: new TextEncoder().encode(TEXT_LINE.repeat(Math.ceil(100_000 / TEXT_LINE.length)).slice(0, 100_000)) },
    { key: "photo", name: "photo.jpg", type: "image/jpeg", bytes: await photoJpeg(4000, 3000), pixels: "4000x3000" },
    { key: "png", name: "screenshot.png", type: "image/png", bytes: patternPng(640, 480), pixels: "640x480" },
    { key: "large", name: "large-screenshot.png", type: "image/png", bytes: screenshotPng(5000, 4000), pixels: "5000x4000" },
  ];
  const byKey = (key: UploadSpec["key"]) => files.find((f) => f.key === key)!;

  log(`files: ${n} uploads of each kind (thumbnail jobs held)`);
  const hold = holdDeferred(bench);
  const urls = new Map<UploadSpec["key"], string[]>();
  const jobs = new Map<UploadSpec["key"], DeferredJob[]>();
  const uploads: FilesOp[] = [];
  try {
    for (const f of files) {
      const before = hold.held.length;
      const { row, samples } = await measure(bench, `${f.name} (${fmt(f.bytes.length / 1024, 0)} KB)`, n, () => upload(base, uploader, f.name, f.type, f.bytes));
      uploads.push(row);
      urls.set(f.key, samples.filter((s) => s.status === 200).map((s) => JSON.parse(s.body).url as string));
      jobs.set(f.key, hold.held.slice(before));
    }
  } finally {
    hold.release();
  }

  log("files: thumbnail jobs run one at a time (the worker's runJob, on the stack's deps)");
  const images = files.filter((f) => f.pixels !== undefined);
  const thumbnails: FilesOp[] = [];
  for (const f of images) {
    const held = jobs.get(f.key) ?? [];
    const { row } = await measure(bench, `${f.name} ${f.pixels}`, held.length, async (i) => {
      const t = performance.now();
      await runJob(stack.deps, held[i]!);
      return { ms: performance.now() - t, status: 200, body: "" };
    });
    thumbnails.push(row);
  }

  const workerRuns = Math.max(2, Math.ceil(n / 5));
  log(`files: ${workerRuns} image uploads of each kind through the local worker`);
  const worker: FilesResult["worker"] = [];
  for (const f of images) {
    const ms: number[] = [];
    for (let i = 0; i < workerRuns; i++) {
      const t = performance.now();
      const res = await upload(base, uploader, f.name, f.type, f.bytes);
      if (res.status !== 200) throw new Error(`POST /user_uploads: ${res.status} ${res.body}`);
      if ((await drainDeferred(stack, 60_000)) === undefined) throw new Error("thumbnail job not drained within 60 s");
      ms.push(performance.now() - t);
    }
    worker.push({ name: f.name, latency: summarize(ms) });
  }
  const textUrls = urls.get("text") ?? [];
  const pngUrls = urls.get("png") ?? [];
  if (textUrls.length === 0 || pngUrls.length === 0) throw new Error("no text or PNG upload succeeded; see the upload table's errors");

  log(`files: ${n} sends of each kind to a stream of ${SUBSCRIBERS + 1}`);
  const sends: FilesOp[] = [];
  for (const [name, content] of [
    ["no link", (i: number) => `Bench message ${i} without a link.`],
    ["linking a text upload", (i: number) => `Bench message ${i}: [notes.txt](${textUrls[i % textUrls.length]})`],
    ["linking an image (thumbnail ready)", (i: number) => `Bench message ${i}: [screenshot.png](${pngUrls[i % pngUrls.length]})`],
  ] as const) {
    // The sends' deferred jobs (search postings) drain before the meters are read, so their work is counted.
    const { row } = await measure(bench, name, n, (i) => sendMessage(base, uploader, content(i)), { settle: () => drainDeferred(stack, 60_000) });
    sends.push(row);
  }

  log(`files: ${n} GETs of each kind (302 to a presigned URL)`);
  const serves: FilesOp[] = [];
  const path = (i: number) => pngUrls[i % pngUrls.length]!;
  for (const [name, who, url] of [
    ["thumbnail, by the uploader", uploader, (i: number) => `/user_uploads/thumbnail/${path(i).replace(/^\/user_uploads\//, "")}/840x560.webp`],
    ["thumbnail, by another subscriber", viewer, (i: number) => `/user_uploads/thumbnail/${path(i).replace(/^\/user_uploads\//, "")}/840x560.webp`],
    ["original, by the uploader", uploader, path],
    ["original, by another subscriber", viewer, path],
  ] as const) {
    const { row } = await measure(bench, name, n, (i) => timed(`${base}${url(i)}`, { headers: { authorization: auth(who) } }), { ok: 302 });
    serves.push(row);
  }

  const thumbBytes = (r: FilesOp) => r.files.all.putBytes / Math.max(1, r.ops);
  const cost = {
    photo1000: scaleCost(imageUploadCost(imageWork(uploads[1]!, thumbnails[0]!, byKey("photo").bytes.length), AWS_PRICES), 1000),
    png1000: scaleCost(imageUploadCost(imageWork(uploads[2]!, thumbnails[1]!, byKey("png").bytes.length), AWS_PRICES), 1000),
    large1000: scaleCost(imageUploadCost(imageWork(uploads[3]!, thumbnails[2]!, byKey("large").bytes.length), AWS_PRICES), 1000),
    thumbnailView1000: scaleCost(fileViewCost(viewWork(serves[1]!), thumbBytes(thumbnails[0]!), AWS_PRICES), 1000),
    photoView1000: scaleCost(fileViewCost(viewWork(serves[3]!), byKey("photo").bytes.length, AWS_PRICES), 1000),
  };
  const sizeOf = Object.fromEntries(files.map((f) => [f.key, f.bytes.length])) as FilesResult["sizes"];
  return { sizes: sizeOf, uploads, thumbnails, worker, sends, serves, cost };
}

/** One operation's billed work at a function's memory, from a measured row. */
function workOf(r: FilesOp, memoryMb: number): FileWork {
  const ops = Math.max(1, r.ops);
  const s3 = s3Requests(r.files.all);
  return {
    memoryMb,
    seconds: estimatedLambdaSeconds(r.cpuMs / ops, r.wallMs / ops, memoryMb),
    readUnits: r.meter.all.rcu / ops,
    writeUnits: r.meter.all.wcu / ops,
    s3Puts: s3.put / ops,
    s3Gets: s3.get / ops,
  };
}

function imageWork(upload: FilesOp, job: FilesOp, bytes: number) {
  return {
    upload: workOf(upload, FUNCTION_MEMORY_MB.files),
    job: { ...workOf(job, FUNCTION_MEMORY_MB.worker), sqsRequests: SQS_REQUESTS_PER_JOB },
    originalBytes: bytes,
    thumbnailBytes: job.files.all.putBytes / Math.max(1, job.ops),
    months: 1,
  };
}

function viewWork(serve: FilesOp): FileWork {
  return workOf(serve, FUNCTION_MEMORY_MB.files);
}

const usd = (x: number) => (x === 0 ? "0" : x < 0.01 ? x.toFixed(5) : x.toFixed(4));

function opRows(rows: FilesOp[]): Cell[][] {
  return rows.map((r) => {
    const k = Math.max(1, r.ops);
    const s3 = r.files.all;
    return [
      r.name,
      r.ops,
      fmtMs(r.latency.p50),
      fmtMs(r.latency.p99),
      fmt(r.cpuMs / k, 0),
      fmt(r.meter.request.calls / k, 1),
      fmt(r.meter.request.rcu / k, 1),
      fmt(r.meter.request.wcu / k, 1),
      fmt(r.meter.deferred.calls / k, 1),
      fmt(r.meter.deferred.wcu / k, 1),
      fmt(s3.puts / k, 1),
      fmt(s3.putBytes / k / 1024, 0),
      fmt(s3.gets / k, 1),
      fmt(s3.presigns / k, 1),
    ];
  });
}

const HEADER = ["operation", "ops", "p50 ms", "p99 ms", "CPU ms", "req RT", "req RCU", "req WCU", "job RT", "job WCU", "S3 PUT", "PUT KB", "S3 GET", "presign"];

function callNotes(rows: FilesOp[]): string[] {
  return rows.flatMap((r) => [
    `  ${r.name}: calls/op: ${perOpCommands(r.meter.all.byCommand, Math.max(1, r.ops)) || "none"}`,
    ...(r.errors > 0 ? [`  ${r.name}: ${r.errors} errors, e.g. ${r.errorSamples[0]}`] : []),
  ]);
}

/** Renders the files part's tables and its cost. */
export function renderFiles(r: FilesResult): string {
  const mem = FUNCTION_MEMORY_MB;
  const c = r.cost.photo1000;
  const tables = [
    renderTable("POST /user_uploads (one at a time; thumbnail jobs held, see the next table)", HEADER, opRows(r.uploads), [
      "CPU ms: process CPU per operation (client, handler, in-process S3 emulator; all threads). req/job: DynamoDB calls and units",
      "  in the request / in SQS jobs. S3 PUT/GET: FileStore calls per operation; presign: presigned URLs (one client GET each).",
      ...callNotes(r.uploads),
    ]),
    renderTable("thumbnail job (the held jobs run one at a time by the worker's runJob → runThumbnail, on the stack's deps)", HEADER, opRows(r.thumbnails), [
      ...r.worker.map((w) => `  through the local worker: ${w.name} upload until the queue drained: p50 ${fmtMs(w.latency.p50)} ms, max ${fmtMs(w.latency.max)} ms (${w.latency.count} runs).`),
      ...callNotes(r.thumbnails),
    ]),
    renderTable(`POST /messages to a stream of ${SUBSCRIBERS + 1} subscribers`, HEADER, opRows(r.sends), callNotes(r.sends)),
    renderTable("GET /user_uploads/... (302 to a presigned S3 URL; the uploads are PNGs linked by the messages above)", HEADER, opRows(r.serves), callNotes(r.serves)),
    renderTable(
      `Cost of 1,000 image uploads (upload + thumbnail job + one month of storage), photo-like JPEG ${fmt(r.sizes.photo / 2 ** 20, 2)} MiB`,
      ["term", "quantity", "unit", "$", "share"],
      c.terms.map((t) => [t.term, fmt(t.quantity, t.quantity < 10 ? 3 : 0), t.unit, usd(t.dollars), `${fmt((100 * t.dollars) / (c.total || 1), 1)}%`]),
      [
        `total $${usd(c.total)} per 1,000 photos; 640x480 PNG (${fmt(r.sizes.png / 1024, 0)} KB): $${usd(r.cost.png1000.total)}; 5000x4000 PNG (${fmt(r.sizes.large / 1024, 0)} KB): $${usd(r.cost.large1000.total)}.`,
        `Views (per 1,000, by another subscriber): thumbnail $${usd(r.cost.thumbnailView1000.total)}, the photo's original $${usd(r.cost.photoView1000.total)} (mostly transfer out).`,
        `Lambda seconds estimated from the measured CPU: CPU ms × 1769 / memory MB, plus wall − CPU (waits); files ${mem.files} MB, worker ${mem.worker} MB.`,
        `Each job counted as its own worker invocation and ${SQS_REQUESTS_PER_JOB} SQS requests (SQS batches make both less).`,
        s3PricesLine(),
      ],
    ),
  ];
  return tables.join("\n\n");
}
