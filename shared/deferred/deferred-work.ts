import { SQSClient, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { Config } from "../config.js";

/**
 * A unit of deferred work: a `kind` naming the job runner (see
 * `shared/deferred/jobs.ts`) and its JSON-serialisable payload.
 */
export interface DeferredJob {
  kind: string;
  payload: Record<string, unknown>;
}

/**
 * Where work that does not fit in one request goes: fan-out to large
 * audiences, bulk flag updates, moves of whole topics. On AWS it is an SQS
 * queue consumed by the worker Lambda; the local stack uses an SQS emulator
 * and runs the same consumer.
 */
export interface DeferredWork {
  /** Enqueues jobs; resolves once SQS has accepted all of them. @throws Error when SQS refuses */
  enqueue(jobs: DeferredJob[]): Promise<void>;
}

/** SQS-backed deferred work (at most 10 jobs per SendMessageBatch, SQS's limit). */
export function createSqsDeferredWork(client: SQSClient, queueUrl: string): DeferredWork {
  return {
    async enqueue(jobs) {
      for (let i = 0; i < jobs.length; i += 10) {
        const batch = jobs.slice(i, i + 10);
        const out = await client.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map((job, j) => ({ Id: String(j), MessageBody: JSON.stringify(job) })),
          }),
        );
        if (out.Failed && out.Failed.length > 0) {
          throw new Error(`SQS refused ${out.Failed.length} deferred jobs: ${out.Failed[0]?.Message}`);
        }
      }
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
