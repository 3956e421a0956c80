import { CreateQueueCommand, DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { startFauxqs } from "fauxqs";
import type { Deps } from "../../shared/deps.js";
import { runJob } from "../../shared/deferred/jobs.js";
import type { DeferredJob } from "../../shared/deferred/deferred-work.js";

export interface LocalSqs {
  endpoint: string;
  queueUrl: string;
  client: SQSClient;
  /** Starts the consumer loop, which runs each job as the worker Lambda would. */
  startConsumer(deps: () => Deps): void;
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
  let idleWaiters: (() => void)[] = [];
  let loop: Promise<void> | undefined;
  let sawEmpty = false;

  const consume = async (deps: () => Deps) => {
    while (running) {
      let out;
      try {
        out = await client.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
        );
      } catch {
        if (!running) return;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const messages = out.Messages ?? [];
      if (messages.length === 0) {
        sawEmpty = true;
        if (inFlight === 0) {
          for (const w of idleWaiters) w();
          idleWaiters = [];
        }
        continue;
      }
      sawEmpty = false;
      inFlight += messages.length;
      await Promise.all(
        messages.map(async (m) => {
          try {
            await runJob(deps(), JSON.parse(m.Body!) as DeferredJob);
            await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
          } catch (err) {
            deps().log.error("deferred job failed", { error: String(err) });
          } finally {
            inFlight--;
          }
        }),
      );
    }
  };

  return {
    endpoint,
    queueUrl,
    client,
    startConsumer(deps) {
      running = true;
      loop = consume(deps);
    },
    drain() {
      return new Promise<void>((resolve) => {
        sawEmpty = false;
        idleWaiters.push(resolve);
      });
    },
    async stop() {
      running = false;
      await loop?.catch(() => {});
      for (const w of idleWaiters) w();
      client.destroy();
      await server.stop();
    },
  };
}
