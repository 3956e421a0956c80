import { BatchGetCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { recordOf } from "./items.js";
import { keyFits } from "./keys.js";
import { retryUnprocessed } from "./retry.js";

/** DynamoDB's limit of keys per BatchGetItem. */
export const BATCH_GET_LIMIT = 100;

/**
 * Reads items by key with BatchGetItem: 100 keys per call, all calls in
 * parallel, unprocessed keys retried with backoff. Missing items are simply
 * absent from the result (so are keys too long to name any item); order is
 * not kept.
 * @param consistentRead strongly consistent reads (twice the read units)
 * @throws Error when keys stay unprocessed after 9 tries
 */
export async function batchGet(
  store: Store,
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
      await retryUnprocessed("BatchGetItem", chunk, async (pending) => {
        const out = await store.db.send(
          new BatchGetCommand({ RequestItems: { [store.table]: { Keys: pending, ConsistentRead: consistentRead } } }),
        );
        items.push(...(out.Responses?.[store.table] ?? []));
        return (out.UnprocessedKeys?.[store.table]?.Keys ?? []) as Record<string, unknown>[];
      });
      return items;
    }),
  );
  return results.flat();
}

/**
 * Reads the records of one entity by ID: one key per distinct ID, read with
 * {@link batchGet} (one round trip per 100 IDs, in parallel).
 * @param keyOf the entity's key builder for one ID
 * @param idOf the ID of a record read back
 * @returns ID → record; IDs without an item are absent
 */
export async function batchGetByIds<Id, T>(
  store: Store,
  ids: Iterable<Id>,
  keyOf: (id: Id) => Record<string, unknown>,
  idOf: (record: T) => Id,
  consistentRead = false,
): Promise<Map<Id, T>> {
  const unique = [...new Set(ids)];
  const found = new Map<Id, T>();
  if (unique.length === 0) return found;
  for (const item of await batchGet(store, unique.map(keyOf), consistentRead)) {
    const record = recordOf<T>(item);
    found.set(idOf(record), record);
  }
  return found;
}
