/**
 * `tsx test/infra/synth-child.ts '<settings JSON>' [nag]`: synthesizes the
 * stack without bundling (test/infra/synth.ts) and prints
 * `{ template, nagFindings, warnings, ids }` as JSON. Tests run it as a child process so
 * that the long synchronous synthesis does not block their worker's event
 * loop (vitest's worker RPC times out after 60 s of silence on a busy machine).
 */
import { synthesizeWithoutBundling } from "./synth.js";

const config = JSON.parse(process.argv[2] ?? "{}") as Record<string, unknown>;
const { template, nagFindings, warnings, ids } = synthesizeWithoutBundling(config, { nag: process.argv[3] === "nag" });
process.stdout.write(JSON.stringify({ template, nagFindings, warnings, ids }));
