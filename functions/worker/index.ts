import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import type { DeferredJob } from "../../shared/deferred/deferred-work.js";
import { runJob } from "./jobs.js";
import { getDefaultDeps, installFileStore, type Deps } from "../../shared/deps.js";
import { withLogKeys } from "../../shared/logger.js";
import { createS3FileStore } from "../../shared/storage/file-store.js";

// Jobs delete files (attachments of deleted messages, unclaimed uploads, organizations).
installFileStore(createS3FileStore);

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
 * Each record's job logs with `request_id` (Lambda's), `message_id` and
 * `job_kind` on every line, so one job's lines can be followed.
 *
 * @param event SQS batch from the Lambda event source mapping
 * @param context Lambda's context (absent in tests)
 * @returns the message IDs of the failed records (empty when all succeeded)
 */
export async function handler(event: SQSEvent, context?: Context): Promise<SQSBatchResponse> {
  const deps = getDefaultDeps();
  const recordDeps = event.Records.map((record) => depsForRecord(deps, record, context?.awsRequestId));
  const outcomes = await Promise.allSettled(
    // async, so that a malformed body rejects its own promise instead of throwing out of map
    event.Records.map(async (record, i) => runJob(recordDeps[i]!, JSON.parse(record.body) as DeferredJob)),
  );
  const batchItemFailures: SQSBatchResponse["batchItemFailures"] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === "fulfilled") return;
    const record = event.Records[i]!;
    const error = outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason));
    recordDeps[i]!.log.error("deferred job failed", {
      receiveCount: Number(record.attributes.ApproximateReceiveCount),
      error: error.message,
      stack: error.stack,
    });
    batchItemFailures.push({ itemIdentifier: record.messageId });
  });
  return { batchItemFailures };
}

/** `deps` whose logger names the invocation, the record and its job kind on every line. */
function depsForRecord(deps: Deps, record: SQSRecord, requestId: string | undefined): Deps {
  const log = withLogKeys(deps.log, { request_id: requestId, message_id: record.messageId, job_kind: kindOf(record.body) });
  return { ...deps, log };
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
