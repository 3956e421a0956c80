import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { putAllIfAbsent } from "./conditions.js";
import { batchGetByIds } from "./batch-get.js";
import { allocateIds } from "./counters.js";
import { recordOf } from "./items.js";
import { keyFits, keys } from "./keys.js";
import type { RecipientRecord } from "./records/recipient.js";


/** Sorted distinct user IDs: the canonical form of a conversation. */
export function conversationUserIds(userIds: number[]): number[] {
  return [...new Set(userIds)].sort((a, b) => a - b);
}

/**
 * The recipient ID of an existing conversation, or undefined when no message
 * was ever sent to exactly this set of users. One round trip; none for a set
 * too large for a key, which no conversation can have.
 * @param userIds every participant, the sender included (any order, duplicates ignored)
 */
export async function getDirectRecipientId(store: Store, realmId: number, userIds: number[]): Promise<number | undefined> {
  const key = keys.directRecipient(realmId, conversationUserIds(userIds));
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(
    new GetCommand({
      TableName: store.table,
      Key: key,
      ConsistentRead: true,
    }),
  );
  return out.Item ? Number(out.Item.recipient_id) : undefined;
}

/** Reads a conversation's recipient record, or undefined. One round trip. */
export async function getRecipient(store: Store, recipientId: number): Promise<RecipientRecord | undefined> {
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.recipient(recipientId) }));
  return out.Item ? recordOf<RecipientRecord>(out.Item) : undefined;
}

/**
 * The recipient ID of the conversation between exactly `userIds`, creating
 * it on first use. The same set always maps to the same ID: the set's
 * `DMSET#` item is claimed with a conditional put (in one transaction with
 * the recipient record); a writer that loses the race re-reads the winner's
 * ID. Costs one round trip when the conversation exists, three on first use
 * (read, counter, transaction), four when a race is lost.
 * @param userIds every participant, the sender included
 */
export async function getOrCreateDirectRecipientId(store: Store, realmId: number, userIds: number[]): Promise<number> {
  const members = conversationUserIds(userIds);
  const existing = await getDirectRecipientId(store, realmId, members);
  if (existing !== undefined) return existing;
  const recipientId = await allocateIds(store, "recipient");
  const record: RecipientRecord = { recipient_id: recipientId, realm_id: realmId, recipient_type: "direct", user_ids: members };
  const created = await putAllIfAbsent(store, [
    { ...keys.directRecipient(realmId, members), type: "direct_recipient", recipient_id: recipientId },
    { ...keys.recipient(recipientId), type: "recipient", ...record },
  ]);
  if (created) return recipientId;
  // Another sender created the conversation between our read and our write.
  const winner = await getDirectRecipientId(store, realmId, members);
  if (winner === undefined) throw new Error(`Conversation claim for ${members.join(",")} vanished after a conflict`);
  return winner;
}

/**
 * Reads conversations' recipient records by ID: one BatchGet per 100
 * distinct IDs, in parallel. IDs without a record are absent.
 */
export async function recipientsByIds(store: Store, recipientIds: Iterable<number>): Promise<Map<number, RecipientRecord>> {
  return batchGetByIds<number, RecipientRecord>(store, recipientIds, (id) => keys.recipient(id), (r) => r.recipient_id);
}
