import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { retryUnprocessed } from "./retry.js";

/** DynamoDB's limit of items per BatchWriteItem. */
export const BATCH_WRITE_LIMIT = 25;

/**
 * Writes items with BatchWriteItem, 25 per call, up to `parallelism` calls
 * at once, retrying unprocessed items with exponential backoff.
 * @param puts items to put (each a full item with keys)
 * @param deletes keys to delete
 * @returns the number of BatchWriteItem calls made (round trips)
 * @throws Error when items stay unprocessed after 9 tries
 */
export async function batchWrite(
  store: Store,
  puts: Record<string, unknown>[],
  deletes: Record<string, unknown>[] = [],
  parallelism = 4,
): Promise<number> {
  type Req = { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } };
  const requests: Req[] = [
    ...puts.map((Item) => ({ PutRequest: { Item } })),
    ...deletes.map((Key) => ({ DeleteRequest: { Key } })),
  ];
  const chunks: Req[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_LIMIT) chunks.push(requests.slice(i, i + BATCH_WRITE_LIMIT));
  let calls = 0;
  const writeChunk = (chunk: Req[]) =>
    retryUnprocessed("BatchWriteItem", chunk, async (pending) => {
      calls++;
      const out = await store.db.send(new BatchWriteCommand({ RequestItems: { [store.table]: pending } }));
      return (out.UnprocessedItems?.[store.table] ?? []) as Req[];
    });
  for (let i = 0; i < chunks.length; i += parallelism) {
    await Promise.all(chunks.slice(i, i + parallelism).map(writeChunk));
  }
  return calls;
}
