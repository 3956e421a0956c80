/**
 * `tsx test/infra/synth-child.ts '<settings JSON>' [nag] [bundle] [outdir=<folder>]`: synthesizes the
 * stack (test/infra/synth.ts; with esbuild bundling only with `bundle`) and prints
 * `{ template, nagFindings, warnings, annotations, ids, outdir }` as JSON. Tests run it as a child process so
 * that the long synchronous synthesis does not block their worker's event
 * loop (vitest's worker RPC times out after 60 s of silence on a busy machine).
 */
import { synthesizeStack } from "./synth.js";

const config = JSON.parse(process.argv[2] ?? "{}") as Record<string, unknown>;
const flags = process.argv.slice(3);
const outdir = flags.find((flag) => flag.startsWith("outdir="))?.slice("outdir=".length);
const { stack: _stack, ...result } = synthesizeStack(config, { nag: flags.includes("nag"), bundle: flags.includes("bundle"), outdir });
process.stdout.write(JSON.stringify(result));
