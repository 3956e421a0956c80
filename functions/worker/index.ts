import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { loadConfig } from "../../shared/config.js";
import { parseDeferredJob } from "../../shared/deferred/jobs.js";
import { JOB_RUNNERS, runJob, type JobRunners } from "./jobs.js";
import { createDeps, systemClock, type WorkerDeps } from "../../shared/deps.js";
import { lazySesMailer } from "../../shared/mail/deployed-mailer.js";
import { unconfiguredMailer } from "../../shared/mail/mailer.js";
import { withLogKeys } from "../../shared/logger.js";
import { createS3FileStore } from "../../shared/storage/file-store.js";
import { pushBouncerFromConfig } from "../../shared/push/http-bouncer.js";

/**
 * The deferred-work Lambda's handler over the given dependencies: consumes
 * the SQS queue that `deps.deferred.enqueue` writes to (see
 * `shared/deferred/`).
 *
 * Each record's body is the JSON of a job, parsed with `parseDeferredJob`
 * (the schema of `shared/deferred/jobs.ts`) and run with {@link runJob}, so
 * this Lambda and the local stack's consumer execute jobs identically. The records of a batch run concurrently (a batch is at most
 * ten jobs; order does not matter, as in any standard queue).
 *
 * Partial batch response (the event source has `ReportBatchItemFailures`):
 * only the records that failed — a malformed body (not JSON, an unknown
 * kind, a payload its kind's schema refuses), a runner that threw — are returned in `batchItemFailures`, so SQS redelivers just
 * those after the visibility timeout and moves a job that keeps failing to
 * the dead-letter queue. Runners must therefore be idempotent. This handler
 * itself never throws, because throwing would make SQS retry the whole batch.
 *
 * Each record's job logs with `request_id` (Lambda's), `message_id` and
 * `job_kind` on every line, so one job's lines can be followed.
 *
 * @param deps the worker's dependencies, file store included (jobs delete
 *   attachments' files, organizations' files, and make thumbnails)
 * @param runners the job registry; tests replace runners
 * @returns the Lambda handler: SQS batch (and Lambda's context, absent in
 *   tests) in, the message IDs of the failed records out (empty when all succeeded)
 */
export function workerHandler(deps: WorkerDeps, runners: JobRunners = JOB_RUNNERS) {
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    const recordDeps = event.Records.map((record) => depsForRecord(deps, record, context?.awsRequestId));
    const outcomes = await Promise.allSettled(
      // async, so that a malformed body rejects its own promise instead of throwing out of map
      event.Records.map(async (record, i) => runJob(recordDeps[i]!, parseDeferredJob(record.body), runners)),
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
  };
}

const config = loadConfig();

const deps = createDeps(config);

/**
 * The worker Lambda's handler, with its dependencies built once per cold
 * start. The stack sets `EMAIL_FROM` only with the `email` setting (and
 * grants SES then); without it mail is dropped and logged. The push
 * notification service's client exists only with its settings.
 */
export const handler = workerHandler({
  ...deps,
  pushBouncer: pushBouncerFromConfig(config),
  files: createS3FileStore(config),
  mailer: config.EMAIL_FROM ? lazySesMailer(config, systemClock.now) : unconfiguredMailer(deps.log),
});

/** `deps` whose logger names the invocation, the record and its job kind on every line. */
function depsForRecord(deps: WorkerDeps, record: SQSRecord, requestId: string | undefined): WorkerDeps {
  const log = withLogKeys(deps.log, { request_id: requestId, message_id: record.messageId, job_kind: kindOf(record.body) });
  return { ...deps, log };
}

/** The job kind of a record body, for logs; `undefined` when the body is not a job. */
function kindOf(body: string): string | undefined {
  try {
    const json: unknown = JSON.parse(body);
    const kind = typeof json === "object" && json !== null && "kind" in json ? json.kind : undefined;
    return typeof kind === "string" ? kind : undefined;
  } catch {
    return undefined;
  }
}
