import type { SQSEvent, SQSRecord } from "aws-lambda";
import { beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../shared/config.js";
import { JOB_RUNNERS, type JobRunners } from "../../functions/worker/jobs.js";
import { createDeps, type WorkerDeps } from "../../shared/deps.js";
import { NO_MAIL } from "../../shared/mail/mailer.js";
import type { Logger } from "../../shared/logger.js";
import { workerHandler } from "../../functions/worker/index.js";

function record(messageId: string, body: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `handle-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: "2",
      SentTimestamp: "1700000000000",
      SenderId: "sender",
      ApproximateFirstReceiveTimestamp: "1700000000001",
    },
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:123456789012:deferred",
    awsRegion: "us-east-1",
  };
}

const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const job = (kind: string, payload: Record<string, unknown> = {}) => JSON.stringify({ kind, payload });

/** A file store the worker's tests never reach (no runner here touches files). */
const NO_FILES: WorkerDeps["files"] = {
  put: () => Promise.reject(new Error("no files in this test")),
  get: () => Promise.reject(new Error("no files in this test")),
  delete: () => Promise.reject(new Error("no files in this test")),
  presignGet: () => Promise.reject(new Error("no files in this test")),
  createMultipartUpload: () => Promise.reject(new Error("no files in this test")),
  uploadPart: () => Promise.reject(new Error("no files in this test")),
  completeMultipartUpload: () => Promise.reject(new Error("no files in this test")),
  abortMultipartUpload: () => Promise.reject(new Error("no files in this test")),
};

describe("worker Lambda", () => {
  let ran: unknown[];
  let errors: { msg: string; data?: Record<string, unknown> }[];
  let handler: ReturnType<typeof workerHandler>;

  beforeEach(() => {
    ran = [];
    errors = [];
    const log: Logger = {
      debug() {},
      info() {},
      warn() {},
      error: (msg, data) => errors.push({ msg, data }),
    };
    const deps: WorkerDeps = { ...createDeps(loadConfig({ LOG_LEVEL: "silent" }), { log }), files: NO_FILES, mailer: NO_MAIL };
    // Real kinds with their runners replaced: `index_message` records its payload, `delete_messages` fails.
    const runners: JobRunners = {
      ...JOB_RUNNERS,
      index_message: async (_deps, payload) => {
        ran.push(payload);
      },
      delete_messages: async () => {
        throw new Error("boom");
      },
    };
    handler = workerHandler(deps, runners);
  });

  it("runs every job of the batch and reports no failures when all succeed", async () => {
    const result = await handler(
      batch(record("m1", job("index_message", { realm_id: 1, message_id: 1 })), record("m2", job("index_message", { realm_id: 1, message_id: 2 }))),
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(ran).toEqual(expect.arrayContaining([{ realm_id: 1, message_id: 1 }, { realm_id: 1, message_id: 2 }]));
    expect(ran).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  it("reports exactly the failed records (runner error, unknown kind, bad payload, malformed body) and runs the rest", async () => {
    const result = await handler(
      batch(
        record("ok-1", job("index_message", { realm_id: 1, message_id: 1 })),
        record("fails", job("delete_messages", { message_id: 1, user_ids: [2] })),
        record("unknown", job("no_such_kind")),
        record("bad-payload", job("index_message", { realm_id: 1, message_id: "one" })),
        record("garbage", "{not json"),
        record("ok-2", job("index_message", { realm_id: 1, message_id: 2 })),
      ),
    );
    expect(result).toEqual({
      batchItemFailures: [
        { itemIdentifier: "fails" },
        { itemIdentifier: "unknown" },
        { itemIdentifier: "bad-payload" },
        { itemIdentifier: "garbage" },
      ],
    });
    expect(ran).toEqual([{ realm_id: 1, message_id: 1 }, { realm_id: 1, message_id: 2 }]);
    expect(errors.map((e) => e.msg)).toEqual(Array(4).fill("deferred job failed"));
    expect(errors.map((e) => e.data)).toEqual([
      expect.objectContaining({ message_id: "fails", job_kind: "delete_messages", receiveCount: 2, error: "boom" }),
      expect.objectContaining({
        message_id: "unknown",
        job_kind: "no_such_kind",
        error: expect.stringMatching(/^Malformed deferred job: .*kind/s),
      }),
      expect.objectContaining({
        message_id: "bad-payload",
        job_kind: "index_message",
        error: expect.stringMatching(/^Malformed deferred job: .*message_id/s),
      }),
      expect.objectContaining({ message_id: "garbage", error: expect.stringMatching(/^Malformed deferred job: .*JSON/) }),
    ]);
  });

  it("answers an empty batch with no failures", async () => {
    expect(await handler(batch())).toEqual({ batchItemFailures: [] });
  });
});
