import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as realZod from "zod";
import {
  BUNDLE_TARGET_KIB,
  FUNCTION_BUNDLES,
  PROJECT_ROOT,
  SDK_BROWSER_USER_AGENT,
  SDK_EVENT_STREAMS,
  bundleFunction,
  measureBundle,
  type BundleSizes,
  type FunctionFolder,
} from "../../infra/bundling.js";
import * as bundledZod from "../../infra/bundling/zod-api.js";

const FOLDERS = Object.keys(FUNCTION_BUNDLES) as FunctionFolder[];

interface Built {
  dir: string;
  metafile: Metafile;
  sizes: BundleSizes;
  inputs: string[];
  warnings: string[];
}

const kib = (bytes: number) => bytes / 1024;
const lazyBytes = (sizes: BundleSizes) => Object.values(sizes.lazyChunks).reduce((sum, bytes) => sum + bytes, 0);

/** The budgets docs/performance.md states: its "Bundles" table, function name to [cold start, lazy chunks] in KiB. */
function documentedBudgets(): Record<string, [number, number]> {
  const doc = readFileSync(path.join(PROJECT_ROOT, "docs/performance.md"), "utf8");
  const section = doc.slice(doc.indexOf("\n## Bundles\n"), doc.indexOf("\n## ", doc.indexOf("\n## Bundles\n") + 1));
  const rows = [...section.matchAll(/^\| `?([a-z]+)`? \| (\d+) \| (\d+) \|/gm)];
  return Object.fromEntries(rows.map(([, name, cold, lazy]) => [name!, [Number(cold), Number(lazy)]]));
}

/** Production TypeScript sources under `dir` (tests aside). */
function sources(dir: string): string[] {
  return readdirSync(path.join(PROJECT_ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"))
    .map((f) => path.join(PROJECT_ROOT, dir, f));
}

describe("Lambda bundles", () => {
  const root = mkdtempSync(path.join(tmpdir(), "zs-bundles-"));
  const built = {} as Record<FunctionFolder, Built>;

  beforeAll(async () => {
    // Prepare: every function bundled as `cdk synth` bundles it (chunks and lazy modules beside it).
    for (const folder of FOLDERS) {
      const dir = path.join(root, folder);
      const { metafile, warnings } = bundleFunction(folder, dir);
      // External modules come from a layer on Lambda; here, from the project's own install.
      for (const name of FUNCTION_BUNDLES[folder].externalModules) {
        mkdirSync(path.join(dir, "node_modules"), { recursive: true });
        symlinkSync(path.join(PROJECT_ROOT, "node_modules", name), path.join(dir, "node_modules", name));
      }
      built[folder] = {
        dir,
        metafile,
        sizes: measureBundle(metafile, dir),
        // What the bundle and its chunks hold: metafile inputs tree-shaken to nothing aside.
        inputs: Object.values(metafile.outputs).flatMap((output) =>
          Object.entries(output.inputs)
            .filter(([, use]) => use.bytesInOutput > 0)
            .map(([input]) => input),
        ),
        warnings,
      };
    }
    // esbuild takes a few seconds for all ten; the margin is for a machine busy with other suites.
  }, 180_000);

  afterAll(() => {
    // The measured sizes, for docs/performance.md and for whoever moves a budget.
    const rows = FOLDERS.filter((f) => built[f]).map((f) => {
      const { sizes } = built[f];
      const { budgetKiB, lazyBudgetKiB } = FUNCTION_BUNDLES[f];
      const chunks = Object.entries(sizes.lazyChunks).map(([name, bytes]) => `${name} ${kib(bytes).toFixed(1)}`);
      return (
        `${f.padEnd(16)} index.mjs ${kib(sizes.main).toFixed(1).padStart(6)}  cold start ${kib(sizes.coldStart).toFixed(1).padStart(6)} (budget ${budgetKiB})` +
        `  on demand ${kib(lazyBytes(sizes)).toFixed(1).padStart(6)} (budget ${lazyBudgetKiB})${chunks.length > 0 ? `: ${chunks.join(", ")}` : ""}`
      );
    });
    console.log(`Bundles, KiB:\n${rows.join("\n")}`);
    rmSync(root, { recursive: true, force: true });
  });

  it.each(FOLDERS)("%s: what a cold start loads stays within its budget, and the budget within 10%% of it", (folder) => {
    const size = kib(built[folder].sizes.coldStart);
    const { budgetKiB } = FUNCTION_BUNDLES[folder];
    expect(size, `${folder} is ${size.toFixed(0)} KiB`).toBeLessThanOrEqual(budgetKiB);
    // A budget far above the bundle would let a later dependency take back what a change saved: lower it.
    expect(budgetKiB, `${folder} is ${size.toFixed(0)} KiB`).toBeLessThanOrEqual(Math.ceil(size * 1.1));
  });

  it.each(FOLDERS)("%s: the chunks loaded on demand stay within their budget, and the budget within 10%% of them", (folder) => {
    const size = kib(lazyBytes(built[folder].sizes));
    const { lazyBudgetKiB } = FUNCTION_BUNDLES[folder];
    expect(size, `${folder}'s chunks are ${size.toFixed(0)} KiB`).toBeLessThanOrEqual(lazyBudgetKiB);
    expect(lazyBudgetKiB, `${folder}'s chunks are ${size.toFixed(0)} KiB`).toBeLessThanOrEqual(Math.ceil(size * 1.1));
  });

  it("every cold-start budget is within the 500 KiB target", () => {
    expect(FOLDERS.filter((f) => FUNCTION_BUNDLES[f].budgetKiB > BUNDLE_TARGET_KIB)).toEqual([]);
  });

  it("docs/performance.md states every function's budgets as FUNCTION_BUNDLES sets them", () => {
    expect(documentedBudgets()).toEqual(
      Object.fromEntries(FOLDERS.map((f) => [f, [FUNCTION_BUNDLES[f].budgetKiB, FUNCTION_BUNDLES[f].lazyBudgetKiB]])),
    );
  });

  it.each(FOLDERS)("%s: leaves the SDK's event-stream and browser code out exactly where they are listed unreached", (folder) => {
    const { inputs } = built[folder];
    const { unreachedModules } = FUNCTION_BUNDLES[folder];
    expect(inputs.some((i) => i.includes("@smithy/core/dist-es/submodules/event-streams/"))).toBe(!unreachedModules.includes(SDK_EVENT_STREAMS));
    expect(inputs.some((i) => i.includes("node_modules/bowser/"))).toBe(!unreachedModules.includes(SDK_BROWSER_USER_AGENT));
  });

  it.each(FOLDERS)("%s: holds the route table only if it is the `$default` fallback (a group knows its own routes)", (folder) => {
    const { inputs } = built[folder];
    expect(inputs.includes("shared/routes.ts")).toBe(folder === "fallback");
    expect(inputs.includes("shared/route-match.ts")).toBe(folder === "fallback");
  });

  it.each(FOLDERS)("%s: puts the Markdown renderer in a chunk of its own, loaded on demand", (folder) => {
    const { metafile } = built[folder];
    const renderer = Object.entries(metafile.outputs).filter(([, output]) => output.entryPoint === "shared/markdown/render.ts");
    const rendersMarkdown = built[folder].inputs.includes("shared/markdown/render.ts");
    expect(renderer.length).toBe(rendersMarkdown ? 1 : 0);
    if (!rendersMarkdown) return;
    const chunk = path.relative(built[folder].dir, path.resolve(PROJECT_ROOT, renderer[0]![0]));
    expect(Object.keys(built[folder].sizes.lazyChunks)).toContain(chunk);
  });

  it.each(FOLDERS)("%s: builds without warnings, with neither KaTeX nor zod's locales inside", (folder) => {
    const { inputs, warnings } = built[folder];
    expect(warnings).toEqual([]);
    expect(inputs.filter((i) => i.includes("node_modules/katex/"))).toEqual([]);
    expect(inputs.filter((i) => /node_modules\/zod\/.*locales\/(?!en\.js)/.test(i))).toEqual([]);
    expect(inputs.filter((i) => i.includes("credential-provider-node"))).toEqual([]);
  });

  it.each(FOLDERS)("%s: carries KaTeX beside the bundle exactly when its code renders math", (folder) => {
    const rendersMath = built[folder].inputs.some((i) => i.endsWith("shared/markdown/constructs/tex.ts"));
    expect(FUNCTION_BUNDLES[folder].lazyModules.includes("katex")).toBe(rendersMath);
    if (!rendersMath) return;
    // Act: what tex.ts does in the deployed function: require "katex" relative to the bundle.
    const katex = createRequire(pathToFileURL(path.join(built[folder].dir, "index.mjs")))("katex") as {
      renderToString: (tex: string) => string;
    };
    expect(katex.renderToString("a^2")).toContain('<span class="katex">');
  });

  it.each(FOLDERS)("%s: the bundle loads and exports its handler, and each chunk loaded on demand loads", async (folder) => {
    const module = (await import(pathToFileURL(path.join(built[folder].dir, "index.mjs")).href)) as { handler?: unknown };
    expect(typeof module.handler).toBe("function");
    for (const chunk of Object.keys(built[folder].sizes.lazyChunks)) await import(pathToFileURL(path.join(built[folder].dir, chunk)).href);
  });

  it("the bundles' zod has every zod member the sources call", () => {
    const used = new Set<string>();
    for (const file of [...sources("shared"), ...sources("functions")]) {
      for (const match of readFileSync(file, "utf8").matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) used.add(match[1]!);
    }
    // Type-only members (z.infer, z.ZodType as a type) are not values of zod either.
    const runtime = [...used].filter((name) => name in realZod.z);
    expect(runtime.length).toBeGreaterThan(5);
    expect(runtime.filter((name) => !(name in bundledZod))).toEqual([]);
  });
});
