import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import type { LinkifierRecord, RealmLinkifiersRecord } from "./records/linkifier.js";

/**
 * Linkifiers entity: one item per realm (`keys.realmLinkifiers`, in the
 * realm's partition) holding every linkifier in the realm's order and a
 * version. One item because rendering needs the whole ordered list (one
 * GetItem beside a message's other reads) and because the rules span
 * linkifiers (unique patterns, a bounded count, a reorder naming every ID):
 * a conditional Put on the version keeps them true under concurrent changes.
 */

/**
 * Reads a realm's linkifiers (one GetItem).
 * @param opts.consistent strongly consistent read (before a compare-and-set write) @default false
 * @returns the linkifiers in the realm's order and the version (0 when the realm never had any)
 */
export async function realmLinkifiers(store: Store, realmId: number, opts: { consistent?: boolean } = {}): Promise<RealmLinkifiersRecord> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.realmLinkifiers(realmId), ConsistentRead: opts.consistent ?? false }),
  );
  if (!out.Item) return { realm_id: realmId, version: 0, linkifiers: [] };
  return recordOf<RealmLinkifiersRecord>(out.Item);
}

/**
 * Replaces a realm's linkifier list if it is still at `version` (the version
 * {@link realmLinkifiers} read). One conditional PutItem.
 * @returns false when another write came first (nothing written)
 */
export async function replaceRealmLinkifiers(
  store: Store,
  realmId: number,
  version: number,
  linkifiers: LinkifierRecord[],
): Promise<boolean> {
  const record: RealmLinkifiersRecord = { realm_id: realmId, version: version + 1, linkifiers };
  return writeIf(
    store,
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.realmLinkifiers(realmId), type: "linkifiers", ...record },
      ...(version === 0
        ? { ConditionExpression: "attribute_not_exists(pk)" }
        : { ConditionExpression: "version = :v", ExpressionAttributeValues: { ":v": version } }),
    }),
  );
}
