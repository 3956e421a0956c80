import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";

/**
 * Storage failures translated at the boundary (Powertools style): callers ask
 * these predicates instead of inspecting SDK error names.
 */

/** True when a conditional write, or any item of a transaction, failed its condition. */
export function isConditionFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === "ConditionalCheckFailedException") return true;
  if (err.name === "TransactionCanceledException") {
    const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((r) => r.Code === "ConditionalCheckFailed");
  }
  return false;
}

/**
 * For a cancelled transaction, the indexes of the items whose condition failed;
 * empty for any other error.
 */
export function failedConditionIndexes(err: unknown): number[] {
  if (!(err instanceof Error) || err.name !== "TransactionCanceledException") return [];
  const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.flatMap((r, i) => (r.Code === "ConditionalCheckFailed" ? [i] : []));
}

/**
 * Sends one conditional write (a Put, Update or Delete, or a transaction of
 * them) and tells whether its condition held.
 * @returns false when a condition failed (then nothing was written)
 * @throws any other storage error
 */
export async function writeIf(
  store: Pick<Store, "db">,
  command: PutCommand | UpdateCommand | DeleteCommand | TransactWriteCommand,
): Promise<boolean> {
  try {
    await store.db.send(command as UpdateCommand);
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * Puts several new items in one transaction, each only if no item with its
 * key exists yet: how a record and its unique claims (a subdomain, a name,
 * an email, a conversation's member set) are created together.
 * One round trip.
 * @param items full items (keys included)
 * @returns false when any key already existed (then nothing was written)
 * @throws any other storage error
 */
export async function putAllIfAbsent(
  store: Store,
  items: Record<string, unknown>[],
): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: items.map((Item) => ({
        Put: { TableName: store.table, Item, ConditionExpression: "attribute_not_exists(pk)" },
      })),
    }),
  );
}
