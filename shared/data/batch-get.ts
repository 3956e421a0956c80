import { BatchGetCommand, type BatchGetCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../deps.js";
import { keyFits } from "./keys.js";

/** DynamoDB's limit of keys per BatchGetItem. */
export const BATCH_GET_LIMIT = 100;

/**
 * Reads items by key with BatchGetItem: 100 keys per call, all calls in
 * parallel, unprocessed keys retried with backoff. Missing items are simply
 * absent from the result (so are keys too long to name any item); order is
 * not kept.
 * @param consistentRead strongly consistent reads (twice the read units)
 * @throws Error when keys stay unprocessed after 8 retries
 */
export async function batchGet(
  deps: Pick<Deps, "db" | "table">,
  itemKeys: Record<string, unknown>[],
  consistentRead = false,
): Promise<Record<string, unknown>[]> {
  // A key beyond DynamoDB's size limits names no item (and would fail the whole call).
  const fitting = itemKeys.filter(keyFits);
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < fitting.length; i += BATCH_GET_LIMIT) chunks.push(fitting.slice(i, i + BATCH_GET_LIMIT));
  const results = await Promise.all(
    chunks.map(async (chunk) => {
      const items: Record<string, unknown>[] = [];
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 8) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
        if (attempt > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
        const out: BatchGetCommandOutput = await deps.db.send(
          new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: pending, ConsistentRead: consistentRead } } }),
        );
        items.push(...(out.Responses?.[deps.table] ?? []));
        pending = (out.UnprocessedKeys?.[deps.table]?.Keys ?? []) as Record<string, unknown>[];
      }
      return items;
    }),
  );
  return results.flat();
}
