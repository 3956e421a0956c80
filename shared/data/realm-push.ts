import { randomBytes, randomUUID } from "node:crypto";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { keys } from "./keys.js";
import type { RealmRecord } from "./records/realm.js";

/**
 * The realm record's push notification fields (`shared/push/`): the
 * organization's UUID at the push notification service and what the
 * service last said of its plan.
 */

/**
 * The realm's UUID and owner secret, created the first time they are needed
 * (one UpdateItem with `if_not_exists`, so two first uses agree on one
 * UUID); realms that already have them cost nothing.
 * @returns the stored values
 */
export async function ensureRealmUuid(
  store: Store,
  realm: Pick<RealmRecord, "id" | "uuid" | "uuid_owner_secret">,
): Promise<{ uuid: string; uuid_owner_secret: string }> {
  if (realm.uuid && realm.uuid_owner_secret) return { uuid: realm.uuid, uuid_owner_secret: realm.uuid_owner_secret };
  const out = await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.realm(realm.id),
      UpdateExpression: "SET #u = if_not_exists(#u, :u), #s = if_not_exists(#s, :s)",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#u": "uuid", "#s": "uuid_owner_secret" },
      // Zulip's owner secret: `uuid_owner_secret` is a 24-character random token.
      ExpressionAttributeValues: { ":u": randomUUID(), ":s": `zuliprealm_${randomBytes(18).toString("base64url")}` },
      ReturnValues: "ALL_NEW",
    }),
  );
  return { uuid: String(out.Attributes!.uuid), uuid_owner_secret: String(out.Attributes!.uuid_owner_secret) };
}

/**
 * Stores what the push notification service said of the organization's
 * plan. One UpdateItem.
 * @param endTimestamp UNIX seconds, or null
 * @returns the values before, to tell whether anything changed (absent fields read as false / null)
 */
export async function setRealmPushStatus(
  store: Store,
  realmId: number,
  enabled: boolean,
  endTimestamp: number | null,
): Promise<{ enabled: boolean; endTimestamp: number | null }> {
  const out = await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.realm(realmId),
      UpdateExpression: "SET #e = :e, #t = :t",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#e": "push_notifications_enabled", "#t": "push_notifications_enabled_end_timestamp" },
      ExpressionAttributeValues: { ":e": enabled, ":t": endTimestamp },
      ReturnValues: "UPDATED_OLD",
    }),
  );
  const old = out.Attributes ?? {};
  return {
    enabled: old.push_notifications_enabled === true,
    endTimestamp: typeof old.push_notifications_enabled_end_timestamp === "number" ? old.push_notifications_enabled_end_timestamp : null,
  };
}
