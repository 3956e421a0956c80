import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { keyFits, keys } from "./keys.js";
import { putAllIfAbsent, writeIf } from "./conditions.js";
import { recordOf, setExpression } from "./items.js";
import type { RealmRecord } from "./records/realm.js";
import { batchGet } from "./batch-get.js";
import { allocatedMaxId } from "./counters.js";


/** Reads one realm by ID (strongly consistent), or undefined. */
export async function getRealm(store: Store, realmId: number): Promise<RealmRecord | undefined> {
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.realm(realmId), ConsistentRead: true }));
  return out.Item ? recordOf<RealmRecord>(out.Item) : undefined;
}

/** Resolves a subdomain to its realm ID through the unique-name item, or undefined. */
export async function getRealmIdBySubdomain(store: Store, subdomain: string): Promise<number | undefined> {
  const key = keys.realmBySubdomain(subdomain);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key }));
  return out.Item ? Number(out.Item.realm_id) : undefined;
}

/**
 * Reads the realm a subdomain names, or undefined: the subdomain's
 * unique-name item ({@link getRealmIdBySubdomain}, eventually consistent),
 * then the realm ({@link getRealm}, strongly consistent). Two GetItems (one
 * when the subdomain is unknown).
 */
export async function realmBySubdomain(store: Store, subdomain: string): Promise<RealmRecord | undefined> {
  const realmId = await getRealmIdBySubdomain(store, subdomain);
  return realmId === undefined ? undefined : getRealm(store, realmId);
}

/**
 * Writes a new realm and claims its subdomain in one transaction; a demo
 * organization's entry in the scheduled deletions (`keys.demoDeletion`)
 * is written in the same transaction.
 * @returns false when the subdomain is already taken (nothing written)
 */
export async function putNewRealm(store: Store, realm: RealmRecord): Promise<boolean> {
  const date = realm.demo_organization_scheduled_deletion_date;
  return putAllIfAbsent(store, [
    { ...keys.realmBySubdomain(realm.string_id), type: "realm_host", realm_id: realm.id },
    { ...keys.realm(realm.id), type: "realm", ...realm },
    ...(date === undefined ? [] : [{ ...keys.demoDeletion(date, realm.id), type: "demo_deletion", realm_id: realm.id, date }]),
  ]);
}

/**
 * Turns a demo organization into a normal one (Zulip's
 * `demo_organization_scheduled_deletion_date` set to None by `PATCH /realm`):
 * removes the field from the realm and its entry from the scheduled
 * deletions, in one transaction, on the condition that the realm still has
 * `date` (so a concurrent change is not undone).
 * @param date the realm's current `demo_organization_scheduled_deletion_date` (UNIX seconds)
 * @returns false when the realm is gone or no longer has that date (nothing written)
 */
export async function clearDemoOrganizationDeletionDate(store: Store, realmId: number, date: number): Promise<boolean> {
  return applyRealmChange(store, realmId, { removeDemoDeletionDate: date });
}

/**
 * Sets top-level fields of a realm record (for example `name`, `deactivated`,
 * `settings`). One round trip.
 * @throws ConditionalCheckFailedException when the realm does not exist
 */
export async function updateRealmFields(store: Store, realmId: number, fields: Partial<RealmRecord>): Promise<void> {
  const { clauses, names, values } = setExpression(fields);
  if (clauses.length === 0) return;
  await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.realm(realmId),
      UpdateExpression: `SET ${clauses.join(", ")}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ConditionExpression: "attribute_exists(pk)",
    }),
  );
}

/** A change to a realm record: top-level fields, and keys set in or removed from its settings maps. */
export interface RealmChange {
  /** Top-level fields to set (`name`, `description`, `deactivated`). */
  fields?: Partial<Pick<RealmRecord, "name" | "description" | "deactivated">>;
  /** Keys of `settings` to set and to remove (no `realm_` prefix). */
  settings?: { set: Record<string, unknown>; remove: string[] };
  /** Keys of `user_settings_defaults` to set and to remove. */
  userSettingsDefaults?: { set: Record<string, unknown>; remove: string[] };
  /**
   * Converts a demo organization into a normal one: removes
   * `demo_organization_scheduled_deletion_date`, which must still be this
   * date (UNIX seconds), and its entry in the scheduled deletions, in the
   * same transaction.
   */
  removeDemoDeletionDate?: number;
}

/**
 * Applies a {@link RealmChange} in one UpdateItem: each settings key is its
 * own document path, so two administrators changing different settings at
 * the same time do not overwrite each other's maps.
 * @returns false when the realm does not exist, or no longer has the
 *   `removeDemoDeletionDate` it was asked to remove (nothing written)
 */
export async function applyRealmChange(
  store: Store,
  realmId: number,
  change: RealmChange,
): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  let n = 0;
  for (const [k, v] of Object.entries(change.fields ?? {})) {
    if (v === undefined) continue;
    names[`#f${n}`] = k;
    values[`:f${n}`] = v;
    sets.push(`#f${n} = :f${n}`);
    n++;
  }
  const maps = [
    ["settings", change.settings],
    ["user_settings_defaults", change.userSettingsDefaults],
  ] as const;
  for (const [attr, part] of maps) {
    if (!part || Object.keys(part.set).length + part.remove.length === 0) continue;
    const mapName = attr === "settings" ? "#ms" : "#mu";
    names[mapName] = attr;
    for (const [k, v] of Object.entries(part.set)) {
      names[`#k${n}`] = k;
      values[`:k${n}`] = v;
      sets.push(`${mapName}.#k${n} = :k${n}`);
      n++;
    }
    for (const k of part.remove) {
      names[`#k${n}`] = k;
      removes.push(`${mapName}.#k${n}`);
      n++;
    }
  }
  const demoDate = change.removeDemoDeletionDate;
  if (demoDate !== undefined) {
    names["#demo"] = "demo_organization_scheduled_deletion_date";
    values[":demo"] = demoDate;
    removes.push("#demo");
  }
  if (sets.length === 0 && removes.length === 0) return true;
  const expression = [sets.length ? `SET ${sets.join(", ")}` : "", removes.length ? `REMOVE ${removes.join(", ")}` : ""]
    .filter(Boolean)
    .join(" ");
  const update = {
    TableName: store.table,
    Key: keys.realm(realmId),
    UpdateExpression: expression,
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    ConditionExpression: demoDate === undefined ? "attribute_exists(pk)" : "attribute_exists(pk) AND #demo = :demo",
  };
  if (demoDate === undefined) return writeIf(store, new UpdateCommand(update));
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [{ Update: update }, { Delete: { TableName: store.table, Key: keys.demoDeletion(demoDate, realmId) } }],
    }),
  );
}

/**
 * Every organization of the deployment, in ID order, for the daily jobs
 * that visit them all (the push notification service's upload,
 * `shared/actions/push/server-data.ts`). No index lists realms and no Scan
 * is needed: realm IDs come from one counter, so the realms are the items
 * `REALM#1` … `REALM#<highest ID allocated>` that still exist. Cost: one
 * GetItem of the counter and one BatchGetItem per 100 IDs, eventually
 * consistent (a missing ID, a deleted organization, still costs its
 * half read unit); about 0.5 read units per realm for a small deployment.
 */
export async function listRealms(store: Store): Promise<RealmRecord[]> {
  const max = await allocatedMaxId(store, "realm");
  const ids = Array.from({ length: max }, (_, i) => i + 1);
  const items = await batchGet(store, ids.map((id) => keys.realm(id)));
  return items.map((item) => recordOf<RealmRecord>(item)).sort((a, b) => a.id - b.id);
}
