/**
 * Part "web" of the bench: the web app in Debian's Chromium against the
 * local stack, with a message history of `--messages` messages (100,000 in
 * a full run) loaded through the data layer.
 *
 * - **Time to the newest messages painted**: from the navigation's start to
 *   the app's `feed-painted` performance mark (set in the frame after the
 *   feed first shows the newest messages of the opened view), read from the
 *   page's own Performance timeline, so the bench's polling adds nothing.
 *   Cold: a new browser context (empty HTTP cache) with a session, one
 *   navigation each; warm: the same context navigating again (hashed files
 *   from the cache, `index.html` revalidated).
 * - **What the first screen ships**: the JavaScript and CSS files a cold
 *   load fetches, compressed bytes as sent (`encodedBodySize`), and the
 *   requests of the whole load.
 *
 * The viewer's history is all read, so the combined feed opens at the
 * newest message (Zulip's first-unread anchor lands there too).
 */
import type { Browser, BrowserContext } from "playwright-core";
import { launchChromium } from "../browser/chromium.js";
import { ensureWebBuild } from "../web-build.js";
import type { Sizes } from "./args.js";
import { createUsers, loadHistory, subscribeUsers, type HistoryInfo } from "./seed.js";
import type { BenchStack } from "./setup.js";
import { percentile } from "./stats.js";

/** The bench stream of this part. */
export const WEB_STREAM = "bench-web";

/** Cold and warm navigations measured. */
const LOADS = 5;

/** One file the first screen fetched. */
export interface ShippedFile {
  name: string;
  kind: "script" | "css" | "document" | "other";
  /** Compressed bytes as sent (body only). */
  encodedBytes: number;
  /** Bytes after decompression. */
  decodedBytes: number;
}

export interface WebResult {
  history: HistoryInfo;
  /** Milliseconds from navigation start to `feed-painted`, one per load. */
  coldMs: number[];
  warmMs: number[];
  /** The files of the first cold load: the document, its scripts and stylesheets. */
  shipped: ShippedFile[];
  /** Every request of the first cold load (files and API calls). */
  requests: number;
  /** The API calls among them: path, and start and end in ms since navigation start. */
  apiCalls: { path: string; startMs: number; endMs: number }[];
  /** When the app's script had been fetched, ms since navigation start. */
  scriptEndMs: number;
}

const PASSWORD = "bench-web-password";

/** The `feed-painted` mark, ms since navigation start; waits for it (the app sets it once per page load). */
async function paintedAt(context: BrowserContext, url: string): Promise<{ ms: number; page: Awaited<ReturnType<BrowserContext["newPage"]>> }> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => performance.getEntriesByName("feed-painted").length > 0, undefined, { timeout: 120_000 });
  const ms = await page.evaluate(() => performance.getEntriesByName("feed-painted")[0]!.startTime);
  return { ms, page };
}

/** A browser context signed in as the viewer (the session cookie set by `POST /accounts/login`). */
async function signedInContext(browser: Browser, site: string, email: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const res = await context.request.post(`${site}/accounts/login`, { form: { username: email, password: PASSWORD } });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
  return context;
}

/**
 * Runs the web part.
 * @param log progress lines (stderr)
 * @throws Error when Chromium is missing (CHROMIUM_PATH / Debian's `chromium`) or the app never paints
 */
export async function runWebPart(bench: BenchStack, sizes: Sizes, log: (line: string) => void): Promise<WebResult> {
  const { stack, realm } = bench;
  const deps = stack.deps;
  await ensureWebBuild();
  const [viewer] = await createUsers(deps, realm, "webviewer", 1, { password: PASSWORD });
  const writers = await createUsers(deps, realm, "webwriter", 3);
  const stream = bench.streams.get(WEB_STREAM)!;
  await subscribeUsers(deps, stream, [viewer!, ...writers]);
  log(`web: loading ${sizes.messages} messages through the data layer`);
  const history = await loadHistory(deps, realm, stream, viewer!, writers, {
    messages: sizes.messages,
    topics: 20,
    dmShare: 0.05,
    starredShare: 0.01,
    unreadShare: 0,
    searchShare: 0,
    batchSize: 250,
    parallel: 6,
  });
  log(`web: loaded ${history.items} items in ${(history.elapsedMs / 1000).toFixed(1)} s`);

  const browser = await launchChromium();
  try {
    const coldMs: number[] = [];
    const warmMs: number[] = [];
    let shipped: ShippedFile[] = [];
    let requests = 0;
    let apiCalls: WebResult["apiCalls"] = [];
    let scriptEndMs = 0;
    for (let i = 0; i < LOADS; i++) {
      const context = await signedInContext(browser, stack.url, viewer!.delivery_email);
      try {
        const cold = await paintedAt(context, `${stack.url}/`);
        coldMs.push(cold.ms);
        if (i === 0) {
          const entries = await cold.page.evaluate(() =>
            [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map((e) => {
              const r = e as PerformanceResourceTiming;
              return {
                name: r.name,
                type: r.initiatorType,
                encoded: r.encodedBodySize,
                decoded: r.decodedBodySize,
                start: r.startTime,
                end: r.responseEnd,
              };
            }),
          );
          requests = entries.length;
          apiCalls = entries
            .filter((e) => new URL(e.name).pathname.startsWith("/json/"))
            .map((e) => ({ path: new URL(e.name).pathname, startMs: e.start, endMs: e.end }));
          scriptEndMs = Math.max(0, ...entries.filter((e) => /\.js$/.test(e.name)).map((e) => e.end));
          shipped = entries
            .filter((e) => !new URL(e.name).pathname.startsWith("/json/"))
            .map((e) => ({
              name: new URL(e.name).pathname,
              kind: e.type === "navigation" ? "document" : /\.js$/.test(e.name) ? "script" : /\.css$/.test(e.name) ? "css" : "other",
              encodedBytes: e.encoded,
              decodedBytes: e.decoded,
            }));
        }
        await cold.page.close();
        const warm = await paintedAt(context, `${stack.url}/`);
        warmMs.push(warm.ms);
        await warm.page.close();
      } finally {
        await context.close();
      }
      log(`web: load ${i + 1}/${LOADS}: cold ${coldMs.at(-1)!.toFixed(0)} ms, warm ${warmMs.at(-1)!.toFixed(0)} ms`);
    }
    return { history, coldMs, warmMs, shipped, requests, apiCalls, scriptEndMs };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1);

/** The part's tables. */
export function renderWeb(r: WebResult): string {
  const firstScreen = r.shipped.filter((f) => f.kind === "script" || f.kind === "css");
  const sum = (files: ShippedFile[], k: "encodedBytes" | "decodedBytes") => files.reduce((a, f) => a + f[k], 0);
  const lines = [
    `Part web: the web app in Chromium, ${r.history.streamMessages + r.history.dmMessages} messages of history`,
    "",
    "| load | median ms | max ms | target |",
    "|---|---:|---:|---:|",
    `| cold (empty cache) | ${percentile(r.coldMs, 50).toFixed(0)} | ${Math.max(...r.coldMs).toFixed(0)} | 2000 |`,
    `| warm (cached files) | ${percentile(r.warmMs, 50).toFixed(0)} | ${Math.max(...r.warmMs).toFixed(0)} | 1000 |`,
    "",
    "| file (first cold load) | kind | compressed KB | KB |",
    "|---|---|---:|---:|",
    ...r.shipped.map((f) => `| ${f.name} | ${f.kind} | ${kb(f.encodedBytes)} | ${kb(f.decodedBytes)} |`),
    `| JavaScript + CSS | | ${kb(sum(firstScreen, "encodedBytes"))} | ${kb(sum(firstScreen, "decodedBytes"))} |`,
    "",
    `requests of the first cold load: ${r.requests}; budget for JavaScript + CSS: 200 KB compressed`,
    `its timeline (ms since navigation start): script fetched ${r.scriptEndMs.toFixed(0)}; ${r.apiCalls
      .map((c) => `${c.path} ${c.startMs.toFixed(0)}–${c.endMs.toFixed(0)}`)
      .join(", ")}; newest messages painted ${r.coldMs[0]!.toFixed(0)}`,
  ];
  return lines.join("\n");
}
