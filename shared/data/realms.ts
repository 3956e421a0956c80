import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { keyFits, keys } from "./keys.js";
import { putAllIfAbsent, writeIf } from "./conditions.js";
import { recordOf, setExpression } from "./items.js";
import type { RealmRecord } from "./records/realm.js";

type Db = Store;

/** Reads one realm by ID (strongly consistent), or undefined. */
export async function getRealm(deps: Db, realmId: number): Promise<RealmRecord | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: keys.realm(realmId), ConsistentRead: true }));
  return out.Item ? recordOf<RealmRecord>(out.Item) : undefined;
}

/** Resolves a subdomain to its realm ID through the unique-name item, or undefined. */
export async function getRealmIdBySubdomain(deps: Db, subdomain: string): Promise<number | undefined> {
  const key = keys.realmBySubdomain(subdomain);
  if (!keyFits(key)) return undefined;
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key }));
  return out.Item ? Number(out.Item.realm_id) : undefined;
}

/**
 * Reads the realm a subdomain names, or undefined: the subdomain's
 * unique-name item ({@link getRealmIdBySubdomain}, eventually consistent),
 * then the realm ({@link getRealm}, strongly consistent). Two GetItems (one
 * when the subdomain is unknown).
 */
export async function realmBySubdomain(deps: Db, subdomain: string): Promise<RealmRecord | undefined> {
  const realmId = await getRealmIdBySubdomain(deps, subdomain);
  return realmId === undefined ? undefined : getRealm(deps, realmId);
}

/**
 * Writes a new realm and claims its subdomain in one transaction; a demo
 * organization's entry in the scheduled deletions (`keys.demoDeletion`)
 * is written in the same transaction.
 * @returns false when the subdomain is already taken (nothing written)
 */
export async function putNewRealm(deps: Db, realm: RealmRecord): Promise<boolean> {
  const date = realm.demo_organization_scheduled_deletion_date;
  return putAllIfAbsent(deps, [
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
export async function clearDemoOrganizationDeletionDate(deps: Db, realmId: number, date: number): Promise<boolean> {
  return writeIf(
    deps,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: deps.table,
            Key: keys.realm(realmId),
            UpdateExpression: "REMOVE demo_organization_scheduled_deletion_date",
            ConditionExpression: "demo_organization_scheduled_deletion_date = :d",
            ExpressionAttributeValues: { ":d": date },
          },
        },
        { Delete: { TableName: deps.table, Key: keys.demoDeletion(date, realmId) } },
      ],
    }),
  );
}

/**
 * Sets top-level fields of a realm record (for example `name`, `deactivated`,
 * `settings`). One round trip.
 * @throws ConditionalCheckFailedException when the realm does not exist
 */
export async function updateRealmFields(deps: Db, realmId: number, fields: Partial<RealmRecord>): Promise<void> {
  const { clauses, names, values } = setExpression(fields);
  if (clauses.length === 0) return;
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: keys.realm(realmId),
      UpdateExpression: `SET ${clauses.join(", ")}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ConditionExpression: "attribute_exists(pk)",
    }),
  );
}
