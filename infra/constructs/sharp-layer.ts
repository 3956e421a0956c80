import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { Construct } from "constructs";
import { FUNCTION_RUNTIME, PROJECT_ROOT } from "./service-function.js";

/** The sharp version of `package-lock.json`: the one the tests ran with. */
export function lockedSharpVersion(root: string = PROJECT_ROOT): string {
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages["node_modules/sharp"]?.version;
  if (!version) throw new Error("package-lock.json has no node_modules/sharp");
  return version;
}

/**
 * Where the layer's content is cached: one folder per sharp version, per
 * machine (`SHARP_LAYER_CACHE`, default `~/.cache/zulip-serverless`), so a
 * clean clone needs the npm registry once and later syntheses work offline.
 */
export function sharpLayerDir(version: string = lockedSharpVersion()): string {
  const cache = process.env.SHARP_LAYER_CACHE ?? path.join(os.homedir(), ".cache", "zulip-serverless");
  return path.join(cache, `sharp-${version}-linux-arm64-glibc`);
}

/**
 * Makes sure the layer folder exists: `nodejs/node_modules/` with sharp at
 * the locked version and its Linux arm64 (glibc) binaries, the layout
 * Lambda puts under `/opt` (on `NODE_PATH`). npm installs them for that
 * platform on any host (`--os`, `--cpu`, `--libc`). The install goes to a
 * temporary folder renamed into place, so concurrent builds never see half
 * a folder.
 * @returns the folder
 * @throws Error when npm fails (no registry access and no cached folder)
 */
export function ensureSharpLayer(version: string = lockedSharpVersion()): string {
  const dir = sharpLayerDir(version);
  if (existsSync(path.join(dir, "nodejs", "node_modules", "@img", "sharp-linux-arm64"))) return dir;
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  const prefix = path.join(tmp, "nodejs");
  mkdirSync(prefix, { recursive: true });
  writeFileSync(path.join(prefix, "package.json"), JSON.stringify({ private: true }));
  execFileSync(
    "npm",
    [
      "install",
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--os=linux",
      "--cpu=arm64",
      "--libc=glibc",
      `sharp@${version}`,
    ],
    { cwd: prefix, stdio: ["ignore", "ignore", "inherit"] },
  );
  rmSync(path.join(prefix, "package.json"));
  if (existsSync(dir)) {
    rmSync(tmp, { recursive: true, force: true });
  } else {
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another build renamed its folder into place first.
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(dir)) throw err;
    }
  }
  return dir;
}

/**
 * A Lambda layer holding sharp for Linux arm64 (`/opt/nodejs/node_modules`),
 * for the functions that decode and resize images (`shared/images/`): the
 * `files` group and the worker. Built by {@link ensureSharpLayer} when its
 * cached folder is missing (`npm run build:sharp-layer` builds it ahead).
 */
export class SharpLayer extends Construct {
  readonly layer: lambda.LayerVersion;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const version = lockedSharpVersion();
    this.layer = new lambda.LayerVersion(this, "Layer", {
      code: lambda.Code.fromAsset(ensureSharpLayer(version)),
      compatibleArchitectures: [lambda.Architecture.ARM_64],
      compatibleRuntimes: [FUNCTION_RUNTIME],
      description: `sharp ${version} (libvips) for Linux arm64`,
    });
  }
}
