import type { SQSEvent, SQSRecord } from "aws-lambda";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../shared/config.js";
import { JOB_RUNNERS } from "../../functions/worker/jobs.js";
import { createDeps, setDefaultDeps } from "../../shared/deps.js";
import type { Logger } from "../../shared/logger.js";
import { handler } from "../../functions/worker/index.js";

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

describe("worker Lambda", () => {
  let ran: Record<string, unknown>[];
  let errors: { msg: string; data?: Record<string, unknown> }[];

  beforeEach(() => {
    ran = [];
    errors = [];
    const log: Logger = {
      debug() {},
      info() {},
      warn() {},
      error: (msg, data) => errors.push({ msg, data }),
    };
    setDefaultDeps(createDeps(loadConfig({ LOG_LEVEL: "silent" }), { log }));
    JOB_RUNNERS.test_ok = async (_deps, payload) => {
      ran.push(payload);
    };
    JOB_RUNNERS.test_fail = async () => {
      throw new Error("boom");
    };
  });

  afterEach(() => {
    delete JOB_RUNNERS.test_ok;
    delete JOB_RUNNERS.test_fail;
  });

  it("runs every job of the batch and reports no failures when all succeed", async () => {
    const result = await handler(batch(record("m1", job("test_ok", { n: 1 })), record("m2", job("test_ok", { n: 2 }))));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(ran).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
    expect(ran).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  it("reports exactly the failed records (runner error, unknown kind, malformed body) and runs the rest", async () => {
    const result = await handler(
      batch(
        record("ok-1", job("test_ok", { n: 1 })),
        record("fails", job("test_fail")),
        record("unknown", job("no_such_kind")),
        record("garbage", "{not json"),
        record("ok-2", job("test_ok", { n: 2 })),
      ),
    );
    expect(result).toEqual({
      batchItemFailures: [{ itemIdentifier: "fails" }, { itemIdentifier: "unknown" }, { itemIdentifier: "garbage" }],
    });
    expect(ran).toHaveLength(2);
    expect(errors.map((e) => e.msg)).toEqual(["deferred job failed", "deferred job failed", "deferred job failed"]);
    expect(errors.map((e) => e.data)).toEqual([
      expect.objectContaining({ message_id: "fails", job_kind: "test_fail", receiveCount: 2, error: "boom" }),
      expect.objectContaining({
        message_id: "unknown",
        job_kind: "no_such_kind",
        error: "Unknown deferred job kind: no_such_kind",
      }),
      expect.objectContaining({ message_id: "garbage", error: expect.stringMatching(/JSON/) }),
    ]);
  });

  it("answers an empty batch with no failures", async () => {
    expect(await handler(batch())).toEqual({ batchItemFailures: [] });
  });
});
