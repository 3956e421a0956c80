import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import type { DeferredJob } from "../../shared/deferred/deferred-work.js";
import { runJob } from "./jobs.js";
import { getDefaultDeps } from "../../shared/deps.js";

/**
 * The deferred-work Lambda: consumes the SQS queue that
 * `deps.deferred.enqueue` writes to (see `shared/deferred/`).
 *
 * Each record's body is a JSON {@link DeferredJob}; it runs with
 * {@link runJob}, so this Lambda and the local stack's consumer execute jobs
 * identically. The records of a batch run concurrently (a batch is at most
 * ten jobs; order does not matter, as in any standard queue).
 *
 * Partial batch response (the event source has `ReportBatchItemFailures`):
 * only the records that failed — a malformed body, an unknown kind, a runner
 * that threw — are returned in `batchItemFailures`, so SQS redelivers just
 * those after the visibility timeout and moves a job that keeps failing to
 * the dead-letter queue. Runners must therefore be idempotent. This handler
 * itself never throws, because throwing would make SQS retry the whole batch.
 *
 * @param event SQS batch from the Lambda event source mapping
 * @returns the message IDs of the failed records (empty when all succeeded)
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = getDefaultDeps();
  const outcomes = await Promise.allSettled(
    // async, so that a malformed body rejects its own promise instead of throwing out of map
    event.Records.map(async (record) => runJob(deps, JSON.parse(record.body) as DeferredJob)),
  );
  const batchItemFailures: SQSBatchResponse["batchItemFailures"] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === "fulfilled") return;
    const record = event.Records[i]!;
    const error = outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason));
    deps.log.error("deferred job failed", {
      messageId: record.messageId,
      receiveCount: Number(record.attributes.ApproximateReceiveCount),
      kind: kindOf(record.body),
      error: error.message,
      stack: error.stack,
    });
    batchItemFailures.push({ itemIdentifier: record.messageId });
  });
  return { batchItemFailures };
}

/** The job kind of a record body, for logs; `undefined` when the body is not a job. */
function kindOf(body: string): string | undefined {
  try {
    const kind = (JSON.parse(body) as Partial<DeferredJob> | null)?.kind;
    return typeof kind === "string" ? kind : undefined;
  } catch {
    return undefined;
  }
}
