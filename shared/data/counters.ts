import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { keys } from "./keys.js";

/**
 * Allocates `count` consecutive IDs from a named counter with one atomic
 * `ADD` (one round trip), so IDs are unique across the whole deployment and
 * increase in allocation order.
 * @param name ID space: `realm`, `user`, `stream`, `message`, `recipient`, ...
 * @param count how many IDs to reserve, at least 1
 * @returns the first ID of the reserved block `[first, first + count)`; the first ID ever is 1
 */
export async function allocateIds(store: Store, name: string, count = 1): Promise<number> {
  const out = await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.counter(name),
      UpdateExpression: "ADD #v :n",
      ExpressionAttributeNames: { "#v": "value" },
      ExpressionAttributeValues: { ":n": count },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  const last = Number(out.Attributes?.value);
  return last - count + 1;
}

/**
 * The highest ID allocated so far from a counter (0 when none). Eventually
 * consistent is enough: used for the deprecated `max_message_id`.
 */
export async function allocatedMaxId(store: Store, name: string): Promise<number> {
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.counter(name) }));
  return Number(out.Item?.value ?? 0);
}
