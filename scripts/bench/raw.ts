/**
 * DynamoDB Local's own rates, for scale: the same concurrency as the API
 * phases, straight to the table, with small items and a fresh client (no
 * meter, no handler, no HTTP). The API numbers are then read as a ratio to
 * what the storage alone can do on this machine.
 */
import { GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Config } from "../../shared/config.js";
import { createDocumentClient } from "../../shared/data/client.js";
import { summarize, ratePerSecond, type LatencySummary } from "./stats.js";

export interface RawRate {
  op: string;
  count: number;
  perSecond: number;
  latency: LatencySummary;
}

/** Partitions the raw items are spread over; far from any key the service uses. */
const PARTITIONS = 8;

async function timed(count: number, concurrency: number, one: (i: number) => Promise<unknown>): Promise<{ perSecond: number; latency: LatencySummary }> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        await one(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { perSecond: ratePerSecond(count, performance.now() - start), latency: summarize(latencies) };
}

/**
 * Measures PutItem (≈ 100-byte items), GetItem (strongly consistent) and
 * Query (100 small items, eventually consistent) per second.
 * @param count operations per kind, at least 800 (so every partition holds 100 items to query)
 * @param concurrency requests in flight
 */
export async function measureRawRates(
  config: Config,
  table: string,
  count: number,
  concurrency: number,
): Promise<RawRate[]> {
  const db = createDocumentClient(config);
  const pk = (i: number) => `BENCHRAW#${i % PARTITIONS}`;
  const sk = (i: number) => String(i).padStart(10, "0");
  try {
    // Warm the connections and the JVM's paths first.
    for (let i = 0; i < 20; i++) await db.send(new PutCommand({ TableName: table, Item: { pk: "BENCHRAW#warm", sk: sk(i), v: "x" } }));
    const put = await timed(count, concurrency, (i) =>
      db.send(new PutCommand({ TableName: table, Item: { pk: pk(i), sk: sk(i), type: "bench_raw", data: "x".repeat(64), n: i } })),
    );
    const get = await timed(count, concurrency, (i) =>
      db.send(new GetCommand({ TableName: table, Key: { pk: pk(i), sk: sk(i) }, ConsistentRead: true })),
    );
    const query = await timed(count, concurrency, (i) =>
      db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": pk(i) },
          ScanIndexForward: false,
          Limit: 100,
        }),
      ),
    );
    return [
      { op: "PutItem (100 B)", count, ...put },
      { op: "GetItem (strong)", count, ...get },
      { op: "Query (100 items)", count, ...query },
    ];
  } finally {
    db.destroy();
  }
}
