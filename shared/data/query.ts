import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../deps.js";

/**
 * Runs a Query to the end of its key range (or until `limit` items), one
 * round trip per page of up to 1 MB, and returns every item in index order.
 * The input's `ExclusiveStartKey` and `Limit` are managed here.
 * @param input a Query without `TableName` (the deps' table is used)
 * @param limit stop after this many items @default no limit
 */
export async function queryAll(
  deps: Pick<Deps, "db" | "table">,
  input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey" | "Limit">,
  limit = Number.POSITIVE_INFINITY,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(
      new QueryCommand({
        ...input,
        TableName: deps.table,
        ExclusiveStartKey: start,
        ...(Number.isFinite(limit) ? { Limit: limit - items.length } : {}),
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start && items.length < limit);
  return items;
}
