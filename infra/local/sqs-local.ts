import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from "@aws-sdk/client-sqs";
import { startFauxqs } from "fauxqs";
import type { WorkerDeps } from "../../shared/deps.js";
import { runJob } from "../../functions/worker/jobs.js";
import { parseDeferredJob } from "../../shared/deferred/jobs.js";

/** Receive loops of the local consumer (each runs up to 10 jobs at once). */
const CONSUMER_LOOPS = 4;

/** Receives after which a failing job is dropped (the deployed queue's redrive policy uses 5). */
const MAX_RECEIVES = 3;

export interface LocalSqs {
  endpoint: string;
  queueUrl: string;
  client: SQSClient;
  /** Starts the consumer loop, which runs each job as the worker Lambda would. */
  startConsumer(deps: WorkerDeps): void;
  /** Resolves once every job enqueued so far has been run (for tests and the bench). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts fauxqs (an SQS emulator in this process), creates the deferred-work
 * queue, and offers a consumer that long-polls it and runs jobs with the
 * same `runJob` the worker Lambda uses.
 */
export async function startLocalSqs(): Promise<LocalSqs> {
  const server = await startFauxqs({ port: 0, logger: false });
  const endpoint = server.address;
  const client = new SQSClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  const created = await client.send(new CreateQueueCommand({ QueueName: "deferred-work" }));
  const queueUrl = created.QueueUrl!;
  let running = false;
  let inFlight = 0;
  let loops: Promise<void>[] = [];

  const handle = async (deps: WorkerDeps, m: Message) => {
    try {
      await runJob(deps, parseDeferredJob(m.Body ?? ""));
      await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
    } catch (err) {
      // Like the worker Lambda's partial batch failure: SQS retries the job;
      // after MAX_RECEIVES it goes where AWS's redrive policy would put it
      // (here: dropped, with the error logged).
      const receives = Number(m.Attributes?.ApproximateReceiveCount ?? "1");
      deps.log.error("deferred job failed", { error: String(err), receives });
      const receipt = { QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! };
      await (receives >= MAX_RECEIVES
        ? client.send(new DeleteMessageCommand(receipt))
        : client.send(new ChangeMessageVisibilityCommand({ ...receipt, VisibilityTimeout: 1 }))
      ).catch(() => undefined);
    }
  };

  const consume = async (deps: WorkerDeps) => {
    while (running) {
      let out;
      try {
        out = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ["ApproximateReceiveCount"],
          }),
        );
      } catch {
        if (!running) return;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const messages = out.Messages ?? [];
      inFlight += messages.length;
      await Promise.all(messages.map((m) => handle(deps, m).finally(() => inFlight--)));
    }
  };

  /** True when no job is queued, invisible (being run or awaiting a retry) or running here. */
  const idle = async (): Promise<boolean> => {
    if (inFlight > 0) return false;
    const out = await client.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    const queued = Number(out.Attributes?.ApproximateNumberOfMessages ?? "0");
    const invisible = Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? "0");
    return queued === 0 && invisible === 0 && inFlight === 0;
  };

  return {
    endpoint,
    queueUrl,
    client,
    startConsumer(deps) {
      running = true;
      // Several receive loops, as Lambda's SQS poller runs several batches at once.
      loops = Array.from({ length: CONSUMER_LOOPS }, () => consume(deps));
    },
    async drain() {
      // Two idle readings in a row: a job finishing may have just enqueued another.
      for (let calm = 0; calm < 2; ) {
        await new Promise((r) => setTimeout(r, 25));
        calm = (await idle()) ? calm + 1 : 0;
      }
    },
    async stop() {
      running = false;
      await Promise.all(loops.map((l) => l.catch(() => {})));
      client.destroy();
      await server.stop();
    },
  };
}
