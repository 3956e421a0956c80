import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import type { CustomProfileFieldRecord, RealmProfileFieldsRecord } from "./records/custom-profile-field.js";
import type { UserRecord } from "./records/user.js";
import { userConditions, type UserCondition } from "./user-writes.js";

/**
 * Custom profile fields entity: one item per realm (`keys.realmProfileFields`,
 * in the realm's partition) holding every field definition and a version.
 * One item because the rules span fields (unique labels, at most two in the
 * profile summary, a reorder rewrites every `order`): a conditional Put on
 * the version keeps them true under concurrent changes in one write.
 * Users' values live on their user items (`profile_data`, field ID →
 * `{value, rendered_value?}`); {@link removeProfileFieldValues} clears them.
 */

/**
 * Reads a realm's custom profile fields (one GetItem).
 * @param opts.consistent strongly consistent read (before a compare-and-set write) @default false
 * @returns the fields in stored order and the version (0 when the realm never had any)
 */
export async function realmProfileFields(
  store: Store,
  realmId: number,
  opts: { consistent?: boolean } = {},
): Promise<RealmProfileFieldsRecord> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.realmProfileFields(realmId), ConsistentRead: opts.consistent ?? false }),
  );
  if (!out.Item) return { realm_id: realmId, version: 0, fields: [] };
  return recordOf<RealmProfileFieldsRecord>(out.Item);
}

/**
 * Replaces a realm's field list if it is still at `version` (the version
 * {@link realmProfileFields} read). One conditional PutItem.
 * @returns false when another write came first (nothing written)
 */
export async function replaceRealmProfileFields(
  store: Store,
  realmId: number,
  version: number,
  fields: CustomProfileFieldRecord[],
): Promise<boolean> {
  const record: RealmProfileFieldsRecord = { realm_id: realmId, version: version + 1, fields };
  return writeIf(
    store,
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.realmProfileFields(realmId), type: "profile_fields", ...record },
      ...(version === 0
        ? { ConditionExpression: "attribute_not_exists(pk)" }
        : { ConditionExpression: "version = :v", ExpressionAttributeValues: { ":v": version } }),
    }),
  );
}

/** One user's value to remove: the field, and optionally the value it must still have. */
export interface ProfileValueRemoval {
  userId: number;
  fieldId: number;
  /** Remove only while the stored value is still this (a removed choice); absent: whatever it is. */
  ifValue?: string;
}

/** How many value removals run at once (bounds the concurrent requests of one call). */
export const PROFILE_VALUE_REMOVAL_BATCH = 25;

/**
 * Removes profile values from user items: one UpdateItem per user
 * (`REMOVE profile_data.<id>`, conditional on the item existing and, with
 * `ifValue`, on the value), {@link PROFILE_VALUE_REMOVAL_BATCH} at a time,
 * so `ceil(n / 25)` sequential rounds of parallel writes.
 * @returns the removals that took effect (a failed condition means the value changed meanwhile)
 */
export async function removeProfileFieldValues(
  store: Store,
  realmId: number,
  removals: ProfileValueRemoval[],
): Promise<ProfileValueRemoval[]> {
  const done: ProfileValueRemoval[] = [];
  for (let i = 0; i < removals.length; i += PROFILE_VALUE_REMOVAL_BATCH) {
    const batch = removals.slice(i, i + PROFILE_VALUE_REMOVAL_BATCH);
    const results = await Promise.all(
      batch.map((r) =>
        writeIf(
          store,
          new UpdateCommand({
            TableName: store.table,
            Key: keys.user(realmId, r.userId),
            UpdateExpression: "REMOVE #pd.#f",
            ConditionExpression:
              r.ifValue === undefined ? "attribute_exists(#pd.#f)" : "#pd.#f.#v = :v",
            ExpressionAttributeNames: { "#pd": "profile_data", "#f": String(r.fieldId), ...(r.ifValue === undefined ? {} : { "#v": "value" }) },
            ...(r.ifValue === undefined ? {} : { ExpressionAttributeValues: { ":v": r.ifValue } }),
          }),
        ),
      ),
    );
    batch.forEach((r, j) => {
      if (results[j]) done.push(r);
    });
  }
  return done;
}

/**
 * Sets and removes some of one active user's profile values in one
 * UpdateItem (`SET profile_data.<id> = …`, `REMOVE profile_data.<id>`), so
 * a concurrent change of another field's value is kept.
 * @param set field ID → stored value
 * @param remove field IDs whose value goes
 * @returns false when the user is not active or has no `profile_data` map (nothing written)
 */
export async function writeProfileValues(
  store: Store,
  realmId: number,
  userId: number,
  set: Map<number, { value: string; rendered_value?: string }>,
  remove: number[],
): Promise<boolean> {
  if (set.size === 0 && remove.length === 0) return true;
  const names: Record<string, string> = { "#pd": "profile_data", "#active": "is_active" };
  const values: Record<string, unknown> = { ":true": true };
  const sets: string[] = [];
  let i = 0;
  for (const [fieldId, stored] of set) {
    names[`#s${i}`] = String(fieldId);
    values[`:s${i}`] = stored;
    sets.push(`#pd.#s${i} = :s${i}`);
    i++;
  }
  const removes = remove.map((fieldId, j) => {
    names[`#r${j}`] = String(fieldId);
    return `#pd.#r${j}`;
  });
  const parts = [];
  if (sets.length) parts.push(`SET ${sets.join(", ")}`);
  if (removes.length) parts.push(`REMOVE ${removes.join(", ")}`);
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.user(realmId, userId),
      UpdateExpression: parts.join(" "),
      ConditionExpression: "attribute_exists(#pd) AND #active = :true",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * A user-item condition for a compare-and-set of the whole `profile_data`
 * map (`PATCH /users/{user_id}`, which writes it with the role and name):
 * the role and active state as read (`userConditions.unchanged`) and the
 * map exactly as read, so a concurrent value change makes the write fail
 * and the action re-read instead of overwriting it.
 */
export function userUnchangedWithProfile(user: Pick<UserRecord, "role" | "is_active" | "profile_data">): UserCondition {
  const base = userConditions.unchanged(user);
  if (user.profile_data === undefined) {
    return { ...base, expression: `${base.expression} AND attribute_not_exists(#c_pd)`, names: { ...base.names, "#c_pd": "profile_data" } };
  }
  return {
    expression: `${base.expression} AND #c_pd = :c_pd`,
    names: { ...base.names, "#c_pd": "profile_data" },
    values: { ...base.values, ":c_pd": user.profile_data },
  };
}
