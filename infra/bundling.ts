import path from "node:path";
import { fileURLToPath } from "node:url";
import { copyFileSync, cpSync, existsSync, mkdirSync } from "node:fs";
import { AssetHashType, DockerImage, type ILocalBundling } from "aws-cdk-lib";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as esbuild from "esbuild";
import type { BuildOptions, Metafile } from "esbuild";
import type { Group } from "../shared/routes.js";
import { precompressSiteFiles } from "../shared/storage/site-files.js";
import { WEB_ASSET_DIR } from "../functions/lambdas/web.setup.js";

/** The repository root: `functions/`, `shared/`, `package-lock.json` live here. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** One Lambda: an API group, the fallback or the worker. */
export type FunctionFolder = Group | "fallback" | "worker";

/**
 * The entry file of a Lambda: an API group's is generated from the route
 * table (`functions/lambdas/<group>.ts`, infra/bundling/lambda-entries.ts),
 * so which Lambda serves an endpoint is decided here and in the route
 * table, not by the endpoint's folder; the fallback and the worker are
 * `functions/<folder>/index.ts`.
 */
export function functionEntry(folder: FunctionFolder): string {
  return folder === "fallback" || folder === "worker"
    ? path.join(PROJECT_ROOT, "functions", folder, "index.ts")
    : path.join(PROJECT_ROOT, "functions", "lambdas", `${folder}.ts`);
}

/**
 * Packages the code loads at run time with `createRequire(...)(name)`
 * rather than importing them, so they stay out of the main bundle; each is
 * one self-contained CommonJS file the bundling step copies into the
 * asset's `node_modules/<name>/index.js`, where Node's `require` finds it
 * (`/var/task/node_modules`). Paths are relative to the repository root.
 */
export const LAZY_MODULES = {
  // KaTeX's own minified UMD build (~270 KB): rendered only for messages with math.
  katex: "node_modules/katex/dist/katex.min.js",
} as const;
export type LazyModule = keyof typeof LAZY_MODULES;

/**
 * The module name the functions that decode images leave out of their
 * bundles: esbuild cannot bundle sharp's native libvips binary, so it comes
 * from the sharp layer (infra/constructs/sharp-layer.ts) at run time.
 */
export const SHARP_MODULE = "sharp";

/**
 * The AWS SDK's event-stream support (about 20 KiB): the SDK's protocols
 * load it with a dynamic `import()` only for operations whose input or
 * output is an event stream, which DynamoDB and SQS operations never have,
 * so the functions leave it out ({@link FunctionBundleSpec.unreachedModules};
 * S3 is spoken without the SDK, `shared/storage/file-store.ts`).
 */
export const SDK_EVENT_STREAMS = "@smithy/core/event-streams";

/** How one function is bundled, beyond what every function shares. */
export interface FunctionBundleSpec {
  /**
   * Budget of what a cold start loads, in KiB: the main bundle (`index.mjs`,
   * minified, without its source map) and the chunks it imports statically
   * ({@link measureBundle}). The bundle-size test fails above it.
   */
  budgetKiB: number;
  /**
   * Budget of the chunks loaded on demand with a dynamic `import()` (the
   * Markdown renderer, a webhook's integration), together, in KiB; 0 for a
   * function that has none. Counted apart so that moving code out of the
   * main bundle still leaves it budgeted.
   */
  lazyBudgetKiB: number;
  /** {@link LAZY_MODULES} this function's code may load. */
  lazyModules: readonly LazyModule[];
  /**
   * Packages left out of the bundle (native code such as `sharp`), which a
   * Lambda layer of the function provides (infra/constructs/sharp-layer.ts);
   * not counted in the budget.
   */
  externalModules: readonly string[];
  /**
   * Modules left out of the bundle and shipped nowhere: only a dynamic
   * `import()` on a code path this function never takes refers to them (a
   * call there would fail with `ERR_MODULE_NOT_FOUND`). A static import of
   * one fails the bundle-size test, which loads every bundle.
   */
  unreachedModules: readonly string[];
}

/**
 * The SDK's browser user-agent parser: `@aws-sdk/core` loads it with a
 * dynamic `import()` only in the browser's user-agent provider; on Node the
 * clients build their user agent from `process` instead.
 */
export const SDK_BROWSER_USER_AGENT = "bowser";

/** What every function leaves out of its bundle: code paths of the AWS SDK Node never takes. */
const SDK_UNREACHED = [SDK_EVENT_STREAMS, SDK_BROWSER_USER_AGENT];

/**
 * Every function's bundle, in one table. Budgets sit just above the
 * measured sizes (docs/performance.md, "Bundles", states them; the
 * bundle-size test prints the sizes) so an ordinary change passes and a new
 * heavy dependency does not; every cold-start budget is within {@link
 * BUNDLE_TARGET_KIB}. What all share is zod (100 KiB) and the AWS SDK's
 * DynamoDB and SQS clients (about 205 KiB), bundled rather than taken from
 * the runtime (docs/performance.md has the measurement); the Markdown
 * renderer (about 130 KiB, `shared/markdown/load.ts`) is a chunk loaded on
 * the first rendering.
 */
export const FUNCTION_BUNDLES: Record<FunctionFolder, FunctionBundleSpec> = {
  unauthenticated: { budgetKiB: 420, lazyBudgetKiB: 42, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  users: { budgetKiB: 495, lazyBudgetKiB: 520, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  streams: { budgetKiB: 445, lazyBudgetKiB: 520, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  messages: { budgetKiB: 495, lazyBudgetKiB: 545, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  events: { budgetKiB: 445, lazyBudgetKiB: 0, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  presence: { budgetKiB: 415, lazyBudgetKiB: 0, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  realm: { budgetKiB: 455, lazyBudgetKiB: 600, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  webhooks: { budgetKiB: 460, lazyBudgetKiB: 625, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  fallback: { budgetKiB: 390, lazyBudgetKiB: 0, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  worker: { budgetKiB: 499, lazyBudgetKiB: 870, lazyModules: ["katex"], externalModules: [SHARP_MODULE], unreachedModules: SDK_UNREACHED },
  files: { budgetKiB: 490, lazyBudgetKiB: 515, lazyModules: ["katex"], externalModules: [SHARP_MODULE], unreachedModules: SDK_UNREACHED },
  // No AWS SDK and no table (shared/http/site-handler.ts): its cold start at 128 MB loads zod, middy and the logger.
  web: { budgetKiB: 150, lazyBudgetKiB: 0, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
};

/** What every function's cold start (main bundle and the chunks it imports statically) stays within, in KiB (docs/performance.md, "Bundles"). */
export const BUNDLE_TARGET_KIB = 500;

/**
 * Lines prepended to every output file (the bundle and its chunks): Node's ESM has no `require`, but a
 * CommonJS dependency inlined by esbuild may still call it for a Node
 * built-in; `createRequire` gives it one.
 */
const ESM_REQUIRE_BANNER = [
  "import { createRequire as __zsCreateRequire } from 'node:module';",
  "const require = __zsCreateRequire(import.meta.url);",
].join(" ");

/**
 * Packages replaced in the bundles by smaller modules of ours
 * (`infra/bundling/`, each explains its reason): zod without its locales,
 * the AWS SDK's credentials from the environment only.
 */
const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  zod: path.join(PROJECT_ROOT, "infra/bundling/zod-entry.ts"),
  "@aws-sdk/credential-provider-node": path.join(PROJECT_ROOT, "infra/bundling/credentials-entry.ts"),
};

/** Copies `modules` ({@link LAZY_MODULES}) into `outputDir/node_modules/<name>/index.js`. */
export function copyLazyModules(outputDir: string, modules: readonly LazyModule[]): void {
  for (const name of modules) {
    const target = path.join(outputDir, "node_modules", name);
    mkdirSync(target, { recursive: true });
    copyFileSync(path.join(PROJECT_ROOT, LAZY_MODULES[name]), path.join(target, "index.js"));
  }
}

/**
 * A function's bundle as esbuild build options, written to `outdir`:
 * `index.mjs` (the handler), the chunks that dynamic `import()`s load
 * (`chunks/<name>-<hash>.mjs`: esbuild's code splitting, which needs ESM
 * and an output directory), their source maps; minified ESM, the AWS SDK
 * bundled (the deployed code runs the SDK version the tests ran with, and
 * a cold start loads it several times faster than the runtime's copy:
 * docs/performance.md, "Bundles"), {@link BUNDLE_ALIASES}, the function's
 * external and unreached modules left out. For {@link bundleFunction} and
 * the Lambda benchmark.
 */
export function esbuildOptions(folder: FunctionFolder, outdir: string): BuildOptions {
  return {
    entryPoints: { index: functionEntry(folder) },
    outdir,
    outExtension: { ".js": ".mjs" },
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    platform: "node",
    format: "esm",
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    target: "node22",
    // Prefer the ESM build of dual packages (smaller, tree-shakable).
    mainFields: ["module", "main"],
    banner: { js: ESM_REQUIRE_BANNER },
    minify: true,
    // Non-ASCII text (emoji, HTML entity tables) as UTF-8 rather than \u escapes: about 9 KiB less where Markdown is rendered.
    charset: "utf8",
    sourcemap: true,
    // Stack traces need the mappings, not the sources: keeps the zip small.
    sourcesContent: false,
    external: [...FUNCTION_BUNDLES[folder].externalModules, ...FUNCTION_BUNDLES[folder].unreachedModules],
    alias: { ...BUNDLE_ALIASES },
    metafile: true,
    logLevel: "silent",
  };
}

/**
 * Builds a function's Lambda code into `outdir` (an empty directory):
 * {@link esbuildOptions} and the function's {@link LAZY_MODULES} beside
 * the bundle. Synchronous, as the CDK's local bundling is.
 * @returns esbuild's metafile (what each output holds and imports) and its warnings
 * @throws Error (esbuild's) when the build fails
 */
export function bundleFunction(folder: FunctionFolder, outdir: string): { metafile: Metafile; warnings: string[] } {
  const result = esbuild.buildSync(esbuildOptions(folder, outdir));
  copyLazyModules(outdir, FUNCTION_BUNDLES[folder].lazyModules);
  return { metafile: result.metafile!, warnings: result.warnings.map((w) => w.text) };
}

/** Sizes of one bundle, in bytes, from its metafile ({@link measureBundle}). */
export interface BundleSizes {
  /** `index.mjs` alone. */
  main: number;
  /** What a cold start loads: `index.mjs` and every chunk it imports statically, transitively. */
  coldStart: number;
  /** Chunks only a dynamic `import()` reaches (loaded on demand), by file name relative to the output directory. */
  lazyChunks: Record<string, number>;
}

/** Splits a bundle's JavaScript outputs into what a cold start loads and what loads on demand. */
export function measureBundle(metafile: Metafile, outdir: string): BundleSizes {
  const outputs = metafile.outputs;
  const name = (file: string) => path.relative(outdir, path.resolve(PROJECT_ROOT, file));
  const js = Object.keys(outputs).filter((file) => file.endsWith(".mjs"));
  const main = js.find((file) => name(file) === "index.mjs");
  if (!main) throw new Error(`no index.mjs among ${js.join(", ")}`);
  const cold = new Set([main]);
  for (const file of cold) {
    for (const { path: imported, kind } of outputs[file]!.imports) {
      if (kind === "import-statement" && outputs[imported]) cold.add(imported);
    }
  }
  return {
    main: outputs[main]!.bytes,
    coldStart: [...cold].reduce((sum, file) => sum + outputs[file]!.bytes, 0),
    lazyChunks: Object.fromEntries(js.filter((file) => !cold.has(file)).map((file) => [name(file), outputs[file]!.bytes])),
  };
}

/**
 * The CDK's local bundling of one function. A class with the function's
 * name as a field, not a bare `tryBundle`: the CDK caches staged assets by
 * the JSON of their bundling options, where a function is invisible, so
 * without the field every function would get the first one's bundle.
 */
class FunctionBundling implements ILocalBundling {
  constructor(
    readonly folder: FunctionFolder,
    readonly siteDir: string | undefined,
  ) {}

  tryBundle(outputDir: string): boolean {
    bundleFunction(this.folder, outputDir);
    if (this.siteDir !== undefined) copySiteFiles(this.siteDir, path.join(outputDir, WEB_ASSET_DIR));
    return true;
  }
}

/** The web app's build in this checkout: what `npm run build:web` writes and the `web` function serves. */
export const WEB_DIST = path.join(PROJECT_ROOT, "web", "dist");

/**
 * Copies the built web app into a function's asset (`<asset>/web/`, where
 * `functions/lambdas/web.setup.ts` reads it) with the gzip and brotli form
 * of each text file beside it (`precompressSiteFiles`).
 * @throws Error naming `npm run build:web` when `siteDir` holds no `index.html`
 */
export function copySiteFiles(siteDir: string, target: string): void {
  if (!existsSync(path.join(siteDir, "index.html"))) {
    throw new Error(`The web app is not built: ${path.join(siteDir, "index.html")} is missing. Run \`npm run build:web\` before synthesizing or deploying.`);
  }
  cpSync(siteDir, target, { recursive: true });
  precompressSiteFiles(target);
}

/**
 * A function's Lambda code: {@link bundleFunction} run by the CDK's local
 * bundling into the asset's directory (never Docker: the image is never
 * pulled because local bundling always succeeds, so `cdk synth` works
 * offline). The asset is hashed by its output, so an unchanged bundle
 * uploads nothing.
 * @param siteDir a built web app to copy into the asset ({@link copySiteFiles}), for the `web` function;
 *   checked when the asset is bundled, so a synthesis that skips bundling needs no build
 */
export function functionCode(folder: FunctionFolder, siteDir?: string): lambda.Code {
  return lambda.Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: { image: DockerImage.fromRegistry("dummy"), local: new FunctionBundling(folder, siteDir) },
  });
}
