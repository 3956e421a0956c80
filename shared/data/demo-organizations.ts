import { DeleteCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { keys, pad } from "./keys.js";
import { queryAll } from "./query.js";

/**
 * The scheduled deletions of demo organizations: one small item per demo
 * organization in the single partition `DEMODELETE`, sorted by deletion
 * date, so that the sweep finds the due ones with one Query and never scans
 * the table. The item is written with the realm (`putNewRealm`) and removed
 * when the organization is converted (`clearDemoOrganizationDeletionDate`)
 * or deleted. The realm record stays the truth: the sweep re-reads it.
 */

/** One scheduled deletion: which realm, and the date its entry is sorted by (UNIX seconds). */
export interface DemoDeletionEntry {
  realmId: number;
  date: number;
}

/**
 * The scheduled deletions due at `nowSeconds` (date ≤ now), oldest first:
 * one strongly consistent Query of the `DEMODELETE` partition (one page per
 * 1 MB, about 10,000 entries), at most `limit` entries.
 */
export async function dueDemoDeletions(store: Store, nowSeconds: number, limit = 1000): Promise<DemoDeletionEntry[]> {
  const items = await queryAll(
    store,
    {
      KeyConditionExpression: "pk = :pk AND sk < :end",
      ExpressionAttributeValues: { ":pk": keys.demoDeletions.pk, ":end": pad(Math.floor(nowSeconds) + 1) },
      ConsistentRead: true,
    },
    limit,
  );
  return items.map((item) => ({ realmId: Number(item.realm_id), date: Number(item.date) }));
}

/** Writes a realm's scheduled-deletion entry for `date` (idempotent PutItem). */
export async function putDemoDeletionEntry(store: Store, entry: DemoDeletionEntry): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.demoDeletion(entry.date, entry.realmId), type: "demo_deletion", realm_id: entry.realmId, date: entry.date },
    }),
  );
}

/** Deletes one scheduled-deletion entry (idempotent DeleteItem). */
export async function removeDemoDeletionEntry(store: Store, entry: DemoDeletionEntry): Promise<void> {
  await store.db.send(new DeleteCommand({ TableName: store.table, Key: keys.demoDeletion(entry.date, entry.realmId) }));
}

/**
 * Marks a realm as being deleted: sets `deactivated` (every request of its
 * users is refused from then on) and `deletion_started_at`, on the condition
 * that no deletion started since `staleBeforeSeconds` (a deletion older
 * than that is presumed lost, e.g. its job went to the dead-letter queue,
 * and is started again). One conditional UpdateItem.
 * @returns false when the realm is gone or a recent deletion is under way (nothing written)
 */
export async function claimRealmDeletion(
  store: Store,
  realmId: number,
  nowSeconds: number,
  staleBeforeSeconds: number,
): Promise<boolean> {
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.realm(realmId),
      UpdateExpression: "SET deactivated = :t, deletion_started_at = :now",
      ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(deletion_started_at) OR deletion_started_at < :stale)",
      ExpressionAttributeValues: { ":t": true, ":now": nowSeconds, ":stale": staleBeforeSeconds },
    }),
  );
}
