import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { recordOf } from "./items.js";
import { keyFits, keys } from "./keys.js";
import type { ConfirmationRecord } from "./records/confirmation.js";
import { TTL_ATTRIBUTE } from "./table.js";

/** How long an expired link's item is kept, so that following it says "expired" rather than "not found": 7 days, in seconds. */
const KEEP_AFTER_EXPIRY_SECONDS = 7 * 24 * 3600;

/**
 * The record's `expires_at` is stored as `link_expires_at`: `expires_at` is
 * the table's TTL attribute (a week later), which `recordOf` strips.
 * Exported for the data modules that write a link in one transaction with
 * what it confirms (`invites.ts`).
 */
export function confirmationItem(keyHash: string, record: ConfirmationRecord): Record<string, unknown> {
  const { expires_at: linkExpiresAt, ...rest } = record;
  return {
    ...keys.confirmation(keyHash),
    type: "confirmation",
    ...rest,
    link_expires_at: linkExpiresAt,
    ...(linkExpiresAt === null ? {} : { [TTL_ATTRIBUTE]: linkExpiresAt + KEEP_AFTER_EXPIRY_SECONDS }),
  };
}

/**
 * Writes a new confirmation under the SHA-256 hex of its key. One PutItem,
 * conditional on the key being new; its TTL is a week after `expires_at`
 * (none for links that never expire, which are deleted when revoked).
 * @param keyHash `hashConfirmationKey(key)`
 * @throws ConditionalCheckFailedException when the key exists (never, for random keys)
 */
export async function putConfirmation(store: Store, keyHash: string, record: ConfirmationRecord): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: confirmationItem(keyHash, record),
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
}

/**
 * Reads a confirmation by its key's hash: one strongly consistent GetItem
 * (a link used a moment ago shows as used). Expiry is the caller's to judge
 * against its clock.
 * @returns the record, or undefined when there is none
 */
export async function confirmationByHash(store: Store, keyHash: string): Promise<ConfirmationRecord | undefined> {
  const key = keys.confirmation(keyHash);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  if (!out.Item) return undefined;
  const item = recordOf<Omit<ConfirmationRecord, "expires_at"> & { link_expires_at?: number | null }>(out.Item);
  return {
    realm_id: item.realm_id,
    kind: item.kind,
    object_id: item.object_id,
    ...(item.email === undefined ? {} : { email: item.email }),
    created_at: item.created_at,
    expires_at: item.link_expires_at ?? null,
    ...(item.used_at === undefined ? {} : { used_at: item.used_at }),
  };
}

/**
 * Marks a single-use link used, only if it is not used yet: one conditional
 * UpdateItem, so two people racing on one link get one success.
 * @param nowSeconds UNIX seconds
 * @returns true when this call used it; false when it was used already or is gone
 */
export async function markConfirmationUsed(store: Store, keyHash: string, nowSeconds: number): Promise<boolean> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.confirmation(keyHash),
        UpdateExpression: "SET used_at = :now",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(used_at)",
        ExpressionAttributeValues: { ":now": nowSeconds },
      }),
    );
    return true;
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException) return false;
    throw e;
  }
}

/** Deletes a confirmation (revoking its link); nothing when it is gone. One DeleteItem. */
export async function deleteConfirmation(store: Store, keyHash: string): Promise<void> {
  const key = keys.confirmation(keyHash);
  if (!keyFits(key)) return;
  await store.db.send(new DeleteCommand({ TableName: store.table, Key: key }));
}
