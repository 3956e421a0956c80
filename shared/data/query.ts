import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";

/** A Query as the data layer's entities write it: the table and the paging are filled in here. */
export type QueryInput = Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey" | "Limit">;

/**
 * The one pagination loop of the data layer: runs a Query page by page (one
 * round trip per page of up to 1 MB, or of `pageLimit` items) and yields
 * each page's items in index order. A consumer that stops iterating stops
 * the reads.
 * @param pageLimit DynamoDB's `Limit` for each page (items evaluated per call) @default none
 */
export async function* queryPages(
  store: Store,
  input: QueryInput,
  pageLimit?: (itemsSoFar: number) => number | undefined,
): AsyncGenerator<Record<string, unknown>[]> {
  let start: Record<string, unknown> | undefined;
  let seen = 0;
  do {
    const limit = pageLimit?.(seen);
    const out = await store.db.send(
      new QueryCommand({
        ...input,
        TableName: store.table,
        ExclusiveStartKey: start,
        ...(limit !== undefined ? { Limit: limit } : {}),
      }),
    );
    const items = out.Items ?? [];
    seen += items.length;
    yield items;
    start = out.LastEvaluatedKey;
  } while (start);
}

/**
 * Runs a Query to the end of its key range (or until `limit` items), one
 * round trip per page of up to 1 MB, and returns every item in index order.
 * @param input a Query without `TableName` (the store's table is used)
 * @param limit stop after this many items @default no limit
 */
export async function queryAll(
  store: Store,
  input: QueryInput,
  limit = Number.POSITIVE_INFINITY,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const pageLimit = Number.isFinite(limit) ? (soFar: number) => limit - soFar : undefined;
  for await (const page of queryPages(store, input, pageLimit)) {
    items.push(...page);
    if (items.length >= limit) break;
  }
  return items;
}

/**
 * Counts the items of a Query's key range (`Select: COUNT`, so no item is
 * returned), one round trip per page of up to 1 MB of items evaluated.
 * @param input a Query without `TableName` (the store's table is used)
 */
export async function countAll(store: Store, input: QueryInput): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await store.db.send(
      new QueryCommand({ ...input, TableName: store.table, Select: "COUNT", ExclusiveStartKey: start }),
    );
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
