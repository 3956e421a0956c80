import type { FunctionFolder } from "./bundling.js";

/**
 * Memory of every Lambda, in MB, in one table; Lambda gives CPU in
 * proportion to memory (1,769 MB = one vCPU). Chosen from the bench's
 * "lambda" part (each bundle in a process of its own, one request at a
 * time), docs/performance.md "Memory" shows the numbers:
 *
 * - `events` 128: its long poll is billed for the whole ~20 s hold while it
 *   mostly waits, so GB-seconds scale with memory and nothing else; the
 *   process peaks at about 75 MB RSS. An idle poll's re-reads take ~8 ms of
 *   CPU each (~110 ms at 128 MB, inside the 1 s re-read interval);
 *   `POST /register` (~50 ms of CPU, ~0.7 s at 128 MB) is the price, paid
 *   once per client session.
 * - `messages` 1024: sends (~35 ms of CPU) and history reads (~22 ms) are
 *   the latency users feel; at 1024 MB they take ~60 and ~40 ms of CPU time
 *   instead of ~120 and ~80 ms at 512 MB, for about 30% more GB-seconds per
 *   request.
 * - `unauthenticated` 512: password hashing (scrypt at N=2^17,
 *   `PASSWORD_HASH_LOG2_N`: 129 MiB of working memory on top of the
 *   runtime's ~100 MB) runs here (`/fetch_api_key`); `users` hashes too
 *   (`PATCH /settings`, `POST /users`).
 * - `users`, `streams`, `realm`, `webhooks` 512: ~7–12 ms of CPU per warm
 *   request, under 70 MB; 512 MB keeps them around 25–40 ms of CPU time.
 * - `presence` 256: one ping per client per minute, ~16 ms of CPU, mostly
 *   DynamoDB waits that cost per GB-second.
 * - `files` 1024: decodes and resizes images with sharp (avatars, emoji,
 *   organization icons; libvips works in native memory beside the heap).
 * - `fallback` 128: a 404 takes under 1 ms of CPU and 50 MB.
 * - `web` 128: serves the web app's files from memory (read and
 *   precompressed once per cold start; no SDK in its bundle), like the
 *   fallback a few milliseconds of CPU per request.
 * - `worker` 512: fan-out jobs batch-write events for up to a minute;
 *   not probed one request at a time (SQS batches), kept at 512. Its
 *   `thumbnail` jobs decode one upload at a time (at most 4 MiB, 40
 *   megapixels; an animation's frames within 30 megapixels).
 */
export const FUNCTION_MEMORY_MB: Record<FunctionFolder, number> = {
  unauthenticated: 512,
  users: 512,
  streams: 512,
  messages: 1024,
  events: 128,
  presence: 256,
  realm: 512,
  webhooks: 512,
  fallback: 128,
  worker: 512,
  files: 1024,
  web: 128,
};
