/**
 * Stack setup for the bench: the local stack (DynamoDB Local, the SQS
 * emulator with its in-process consumer, the HTTP adapter in front of the
 * real handlers) with a capacity meter on its document client and a call
 * meter on its file store, and one
 * organization with the streams every part uses.
 */
import { cpus, totalmem } from "node:os";
import { doCreateRealm } from "../../shared/actions/realms/create-realm.js";
import type { RealmRecord } from "../../shared/data/records/realm.js";
import type { StreamRecord } from "../../shared/data/records/stream.js";
import type { UserRecord } from "../../shared/data/records/user.js";

import { startLocalStack, type LocalStack } from "../../infra/local/stack.js";
import { FileStoreMeter } from "./file-meter.js";
import { DynamoMeter } from "./meter.js";
import { EventWriteProbe, JobProbe } from "./probe.js";
import { createStream } from "./seed.js";

export interface BenchStack {
  stack: LocalStack;
  meter: DynamoMeter;
  /** S3 calls of `deps.files` (and their bytes), by origin like {@link BenchStack.meter}. */
  files: FileStoreMeter;
  probe: EventWriteProbe;
  jobs: JobProbe;
  realm: RealmRecord;
  owner: UserRecord;
  /** Streams by bench name (created before any bulk user, so their `stream` events reach one user). */
  streams: Map<string, StreamRecord>;
}

/**
 * Starts the stack, installs the meter and creates the organization and
 * the named public streams.
 */
export async function startBenchStack(streamNames: string[]): Promise<BenchStack> {
  const stack = await startLocalStack({ env: { LOG_LEVEL: "error", RATE_LIMITS: "off" } });
  const meter = new DynamoMeter();
  meter.install(stack.deps.db);
  const files = new FileStoreMeter();
  files.install(stack.deps);
  const probe = new EventWriteProbe();
  probe.install(stack.deps.db);
  const jobs = new JobProbe();
  jobs.install(stack.sqs.client);
  try {
    const { realm, owner } = await doCreateRealm(stack.deps, {
      string_id: "",
      name: "Bench Organization",
      owner: { email: "owner@bench.example", full_name: "Bench Owner" },
    });
    const streams = new Map<string, StreamRecord>();
    for (const name of streamNames) streams.set(name, await createStream(stack.deps, realm, owner, name));
    return { stack, meter, files, probe, jobs, realm, owner, streams };
  } catch (err) {
    await stack.stop();
    throw err;
  }
}

/**
 * Waits until the deferred-work consumer has run everything enqueued so
 * far, or `timeoutMs` passes.
 * @returns milliseconds waited, or undefined on timeout
 */
export async function drainDeferred(stack: LocalStack, timeoutMs: number): Promise<number | undefined> {
  const start = performance.now();
  const done = await Promise.race([
    stack.drainDeferredWork().then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), timeoutMs).unref()),
  ]);
  return done ? performance.now() - start : undefined;
}

/** One line describing the machine, for the report's header. */
export function machineLine(): string {
  const cpu = cpus();
  return `${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown"}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
}
