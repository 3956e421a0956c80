import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetByIds } from "./batch-get.js";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import type { AlertWordsRecord } from "./records/alert-words.js";

/**
 * Alert words entity: one item per user (`keys.alertWords`) holding the
 * user's whole list, written whole by each change.
 */

/**
 * Reads one user's alert words (strongly consistent GetItem, one round trip).
 * @returns the stored list, or undefined when the user never had an item
 */
export async function alertWordsOf(store: Store, userId: number): Promise<string[] | undefined> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.alertWords(userId), ConsistentRead: true }),
  );
  return out.Item ? recordOf<AlertWordsRecord>(out.Item).words : undefined;
}

/**
 * Reads the alert words of many users (eventually consistent BatchGetItem:
 * one round trip per 100 users, in parallel).
 * @returns user ID → non-empty list; users without words are absent
 */
export async function alertWordsOfUsers(store: Store, userIds: Iterable<number>): Promise<Map<number, string[]>> {
  const found = await batchGetByIds<number, AlertWordsRecord>(store, userIds, keys.alertWords, (r) => r.user_id);
  const words = new Map<number, string[]>();
  for (const [id, record] of found) if (record.words.length > 0) words.set(id, record.words);
  return words;
}

/**
 * Replaces one user's alert words if they are still `before` (the list read
 * by {@link alertWordsOf}; undefined: no item yet). One conditional PutItem.
 * @returns false when another write came first (nothing written)
 */
export async function replaceAlertWords(
  store: Store,
  userId: number,
  before: string[] | undefined,
  after: string[],
): Promise<boolean> {
  const record: AlertWordsRecord = { user_id: userId, words: after };
  return writeIf(
    store,
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.alertWords(userId), type: "alert_words", ...record },
      ...(before === undefined
        ? { ConditionExpression: "attribute_not_exists(pk)" }
        : { ConditionExpression: "words = :before", ExpressionAttributeValues: { ":before": before } }),
    }),
  );
}
