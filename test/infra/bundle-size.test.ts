import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as realZod from "zod";
import {
  BUNDLE_TARGET_KIB,
  FUNCTION_BUNDLES,
  PROJECT_ROOT,
  SDK_EVENT_STREAMS,
  esbuildOptions,
  lazyModuleCommands,
  type FunctionFolder,
} from "../../infra/bundling.js";
import * as bundledZod from "../../infra/bundling/zod-api.js";

const FOLDERS = Object.keys(FUNCTION_BUNDLES) as FunctionFolder[];

interface Built {
  dir: string;
  bytes: number;
  inputs: string[];
  warnings: string[];
}

/** The budgets docs/performance.md states: its "Bundles" table, function name to budget in KiB. */
function documentedBudgets(): Record<string, number> {
  const doc = readFileSync(path.join(PROJECT_ROOT, "docs/performance.md"), "utf8");
  const section = doc.slice(doc.indexOf("\n## Bundles\n"), doc.indexOf("\n## ", doc.indexOf("\n## Bundles\n") + 1));
  const rows = [...section.matchAll(/^\| `?([a-z]+)`? \| ([\d,]+) \|/gm)];
  return Object.fromEntries(rows.map(([, name, kib]) => [name!, Number(kib!.replace(",", ""))]));
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
    // Prepare: every function bundled as `cdk synth` bundles it, its lazy modules copied beside it.
    await Promise.all(
      FOLDERS.map(async (folder) => {
        const dir = path.join(root, folder);
        const result = await esbuild.build({ ...esbuildOptions(folder, dir), logLevel: "silent" });
        for (const command of lazyModuleCommands(dir, FUNCTION_BUNDLES[folder].lazyModules)) execSync(command);
        // External modules come from a layer on Lambda; here, from the project's own install.
        for (const name of FUNCTION_BUNDLES[folder].externalModules) {
          mkdirSync(path.join(dir, "node_modules"), { recursive: true });
          symlinkSync(path.join(PROJECT_ROOT, "node_modules", name), path.join(dir, "node_modules", name));
        }
        built[folder] = {
          dir,
          bytes: statSync(path.join(dir, "index.mjs")).size,
          // What the bundle holds: metafile inputs tree-shaken to nothing aside.
          inputs: Object.values(result.metafile!.outputs).flatMap((output) =>
            Object.entries(output.inputs)
              .filter(([, use]) => use.bytesInOutput > 0)
              .map(([input]) => input),
          ),
          warnings: result.warnings.map((w) => w.text),
        };
      }),
    );
    // esbuild takes a few seconds for all ten; the margin is for a machine busy with other suites.
  }, 180_000);

  afterAll(() => {
    // The measured sizes, for docs/performance.md and for whoever moves a budget.
    const rows = FOLDERS.filter((f) => built[f]).map((f) => `${f.padEnd(16)} ${(built[f].bytes / 1024).toFixed(1).padStart(6)} KiB  (budget ${FUNCTION_BUNDLES[f].budgetKiB})`);
    console.log(`Main bundles (index.mjs):\n${rows.join("\n")}`);
    rmSync(root, { recursive: true, force: true });
  });

  it.each(FOLDERS)("%s: the main bundle stays within its budget, and the budget within 10%% of it", (folder) => {
    const kib = built[folder].bytes / 1024;
    const { budgetKiB } = FUNCTION_BUNDLES[folder];
    expect(kib, `${folder} is ${kib.toFixed(0)} KiB`).toBeLessThanOrEqual(budgetKiB);
    // A budget far above the bundle would let a later dependency take back what a change saved: lower it.
    expect(budgetKiB, `${folder} is ${kib.toFixed(0)} KiB`).toBeLessThanOrEqual(Math.ceil(kib * 1.1));
  });

  it("a budget is above the 500 KiB target only for a function whose bundle still is", () => {
    const overBudget = FOLDERS.filter((f) => FUNCTION_BUNDLES[f].budgetKiB > BUNDLE_TARGET_KIB);
    const overSize = FOLDERS.filter((f) => built[f].bytes / 1024 > BUNDLE_TARGET_KIB);
    expect(overBudget).toEqual(overSize);
  });

  it("docs/performance.md states every function's budget as FUNCTION_BUNDLES sets it", () => {
    expect(documentedBudgets()).toEqual(Object.fromEntries(FOLDERS.map((f) => [f, FUNCTION_BUNDLES[f].budgetKiB])));
  });

  it.each(FOLDERS)("%s: leaves the SDK's event-stream code out exactly where it is listed unreached", (folder) => {
    const holds = built[folder].inputs.some((i) => i.includes("@smithy/core/dist-es/submodules/event-streams/"));
    expect(holds).toBe(!FUNCTION_BUNDLES[folder].unreachedModules.includes(SDK_EVENT_STREAMS));
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

  it.each(FOLDERS)("%s: the bundle loads and exports its handler", async (folder) => {
    const module = (await import(pathToFileURL(path.join(built[folder].dir, "index.mjs")).href)) as { handler?: unknown };
    expect(typeof module.handler).toBe("function");
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
