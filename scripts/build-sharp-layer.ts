/**
 * `npm run build:sharp-layer`: builds (once per machine and sharp version)
 * the folder of the Lambda layer that gives the `files` group and the worker
 * sharp for Linux arm64, and prints where it is. `cdk synth` and the infra
 * tests build it themselves when it is missing; CI calls this first so a
 * registry failure shows here, not inside a synthesis.
 */
import { ensureSharpLayer, lockedSharpVersion } from "../infra/constructs/sharp-layer.js";

const version = lockedSharpVersion();
console.log(`sharp ${version} (linux-arm64, glibc): ${ensureSharpLayer(version)}`);
