import { SQSClient, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { Config } from "../config.js";
import type { DeferredJob } from "./jobs.js";

/**
 * Where work that does not fit in one request goes: fan-out to large
 * audiences, bulk flag updates, moves of whole topics. On AWS it is an SQS
 * queue consumed by the worker Lambda; the local stack uses an SQS emulator
 * and runs the same consumer.
 */
export interface DeferredWork {
  /**
   * Enqueues jobs (typed by `jobs.ts`'s schema); resolves once SQS has accepted all of them.
   * @param options.delaySeconds hold the jobs back this long (SQS `DelaySeconds`, 0 to
   *   {@link SQS_MAX_DELAY_SECONDS}) @default 0
   * @throws Error when SQS refuses
   */
  enqueue(jobs: DeferredJob[], options?: EnqueueOptions): Promise<void>;
}

/** How jobs are enqueued. */
export interface EnqueueOptions {
  /** Seconds before SQS delivers the jobs, whole, 0 to {@link SQS_MAX_DELAY_SECONDS}. @default 0 */
  delaySeconds?: number;
}

/** The longest delay SQS holds a message back (`DelaySeconds`, 15 minutes). */
export const SQS_MAX_DELAY_SECONDS = 900;

/** SQS's limit on one message and on one SendMessageBatch request, in bytes. */
export const SQS_MAX_REQUEST_BYTES = 256 * 1024;

/**
 * Groups job bodies into SendMessageBatch requests: at most 10 entries (SQS's
 * limit) and at most {@link SQS_MAX_REQUEST_BYTES} of bodies per request, so
 * that ten large fan-out jobs never make one oversized batch.
 * @throws Error for a single job larger than the SQS message limit (a bug in the job's producer)
 */
export function planSqsBatches(bodies: string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = Buffer.byteLength(body, "utf8");
    if (size > SQS_MAX_REQUEST_BYTES) throw new Error(`Deferred job of ${size} bytes exceeds the SQS limit`);
    if (current.length === 10 || bytes + size > SQS_MAX_REQUEST_BYTES) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(body);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** SQS-backed deferred work: one SendMessageBatch per {@link planSqsBatches} group, in parallel. */
export function createSqsDeferredWork(client: SQSClient, queueUrl: string): DeferredWork {
  return {
    async enqueue(jobs, options = {}) {
      const delay = options.delaySeconds ?? 0;
      if (!Number.isInteger(delay) || delay < 0 || delay > SQS_MAX_DELAY_SECONDS) {
        throw new Error(`Deferred job delay of ${delay} s is outside SQS's 0..${SQS_MAX_DELAY_SECONDS}`);
      }
      const batches = planSqsBatches(jobs.map((job) => JSON.stringify(job)));
      await Promise.all(
        batches.map(async (batch) => {
          const out = await client.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: batch.map((body, j) => ({ Id: String(j), MessageBody: body, ...(delay > 0 ? { DelaySeconds: delay } : {}) })),
            }),
          );
          if (out.Failed && out.Failed.length > 0) {
            throw new Error(`SQS refused ${out.Failed.length} deferred jobs: ${out.Failed[0]?.Message}`);
          }
        }),
      );
    },
  };
}

/**
 * Builds the deferred-work sink from configuration. Without a queue URL
 * (unit tests) jobs are refused loudly rather than dropped.
 */
export function createDeferredWork(config: Pick<Config, "DEFERRED_QUEUE_URL" | "SQS_ENDPOINT" | "AWS_REGION">): DeferredWork {
  if (!config.DEFERRED_QUEUE_URL) {
    return {
      async enqueue() {
        throw new Error("Deferred work is not configured (DEFERRED_QUEUE_URL is unset)");
      },
    };
  }
  const client = new SQSClient({
    region: config.AWS_REGION,
    ...(config.SQS_ENDPOINT
      ? { endpoint: config.SQS_ENDPOINT, credentials: { accessKeyId: "local", secretAccessKey: "local" } }
      : {}),
  });
  return createSqsDeferredWork(client, config.DEFERRED_QUEUE_URL);
}
