import path from "node:path";
import { fileURLToPath } from "node:url";
import { Charset, OutputFormat, type BundlingOptions } from "aws-cdk-lib/aws-lambda-nodejs";
import type { BuildOptions } from "esbuild";
import type { Group } from "../shared/routes.js";

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
 * so functions without the S3 client leave it out ({@link
 * FunctionBundleSpec.unreachedModules}). The S3 client imports it
 * statically (for SelectObjectContent), so `files` and the worker keep it.
 */
export const SDK_EVENT_STREAMS = "@smithy/core/event-streams";

/** How one function is bundled, beyond what every function shares. */
export interface FunctionBundleSpec {
  /**
   * Budget of the main bundle (`index.mjs`, minified, without its source
   * map), in KiB: the bundle-size test fails above it. Lazily loaded and
   * external modules are not counted.
   */
  budgetKiB: number;
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

/** What the functions without the S3 client leave out of their bundles. */
const SDK_UNREACHED = [SDK_EVENT_STREAMS];

/**
 * Every function's bundle, in one table. Budgets sit just above the
 * measured size (docs/performance.md, "Bundles", states them; the
 * bundle-size test prints the sizes) so an ordinary change passes and a new
 * heavy dependency does not. The target is {@link BUNDLE_TARGET_KIB}; the
 * functions above it carry the Markdown renderer (micromark, emoji names,
 * HTML entities: about 180 KiB) or the S3 client (about 170 KiB), and
 * `webhooks` every integration's payload handling (about 100 KiB); what all
 * share is zod (100 KiB) and the AWS SDK's DynamoDB and SQS clients (about
 * 205 KiB), bundled rather than taken from the runtime (docs/performance.md
 * has the measurement).
 */
export const FUNCTION_BUNDLES: Record<FunctionFolder, FunctionBundleSpec> = {
  unauthenticated: { budgetKiB: 430, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  users: { budgetKiB: 630, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  streams: { budgetKiB: 615, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  messages: { budgetKiB: 680, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  events: { budgetKiB: 445, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  presence: { budgetKiB: 410, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  realm: { budgetKiB: 480, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  webhooks: { budgetKiB: 715, lazyModules: ["katex"], externalModules: [], unreachedModules: SDK_UNREACHED },
  fallback: { budgetKiB: 385, lazyModules: [], externalModules: [], unreachedModules: SDK_UNREACHED },
  worker: { budgetKiB: 620, lazyModules: [], externalModules: [SHARP_MODULE], unreachedModules: [] },
  files: { budgetKiB: 735, lazyModules: [], externalModules: [SHARP_MODULE], unreachedModules: [] },
};

/** The size every main bundle should stay within, in KiB (docs/performance.md, "Bundles"). */
export const BUNDLE_TARGET_KIB = 500;

/**
 * Lines prepended to every ESM bundle: Node's ESM has no `require`, but a
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

/** The esbuild settings every function shares, in one place for the CDK and the bundle-size test. */
const SHARED = {
  target: "node22",
  // Prefer the ESM build of dual packages (smaller, tree-shakable).
  mainFields: ["module", "main"],
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  // Non-ASCII text (emoji, HTML entity tables) as UTF-8 rather than \u escapes: about 9 KiB less where Markdown is rendered.
  charset: "utf8",
  sourceMap: true,
  // Stack traces need the mappings, not the sources: keeps the zip small.
  sourcesContent: false,
} as const;

/** Shell commands that copy `modules` ({@link LAZY_MODULES}) into `outputDir/node_modules`. */
export function lazyModuleCommands(outputDir: string, modules: readonly LazyModule[]): string[] {
  return modules.flatMap((name) => {
    const target = path.join(outputDir, "node_modules", name);
    return [`mkdir -p "${target}"`, `cp "${path.join(PROJECT_ROOT, LAZY_MODULES[name])}" "${path.join(target, "index.js")}"`];
  });
}

/**
 * `NodejsFunction` bundling of a function's {@link functionEntry}: the locally
 * installed esbuild (never Docker, so `cdk synth` works offline), minified
 * ESM with source maps, the AWS SDK bundled (the deployed code runs the SDK
 * version the tests ran with, and a cold start loads it several times
 * faster than the runtime's copy: docs/performance.md, "Bundles"),
 * {@link BUNDLE_ALIASES}, and the function's lazy modules copied beside the
 * bundle.
 */
export function nodejsBundling(folder: FunctionFolder): BundlingOptions {
  const spec = FUNCTION_BUNDLES[folder];
  return {
    forceDockerBundling: false,
    format: OutputFormat.ESM,
    target: SHARED.target,
    mainFields: [...SHARED.mainFields],
    banner: SHARED.banner,
    minify: SHARED.minify,
    charset: Charset.UTF8,
    sourceMap: SHARED.sourceMap,
    sourcesContent: SHARED.sourcesContent,
    bundleAwsSDK: true,
    externalModules: [...spec.externalModules, ...spec.unreachedModules],
    esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_inputDir, outputDir) => lazyModuleCommands(outputDir, spec.lazyModules),
    },
  };
}

/**
 * The same bundle as {@link nodejsBundling}, as esbuild build options
 * (what `NodejsFunction` passes on esbuild's command line), written to
 * `outdir/index.mjs`: for the bundle-size test.
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
    target: SHARED.target,
    mainFields: [...SHARED.mainFields],
    banner: { js: SHARED.banner },
    minify: SHARED.minify,
    charset: SHARED.charset,
    sourcemap: SHARED.sourceMap,
    sourcesContent: SHARED.sourcesContent,
    external: [...FUNCTION_BUNDLES[folder].externalModules, ...FUNCTION_BUNDLES[folder].unreachedModules],
    alias: { ...BUNDLE_ALIASES },
    metafile: true,
  };
}
