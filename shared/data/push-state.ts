import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGet } from "./batch-get.js";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { allocateIds } from "./counters.js";
import { keys } from "./keys.js";

/**
 * What this server last told the push notification service about each
 * organization's users (`shared/actions/push/server-data.ts`). Zulip keeps
 * an audit log and uploads its billing rows; this server keeps no audit
 * log, so it reports an organization's user counts as one row whenever they
 * differ from the counts it last sent, which this small item remembers
 * (`REALM#<realm_id>` / `PUSHSTATE`, in the realm's partition so that
 * deleting the organization deletes it).
 */

/** The counter the uploaded rows' IDs come from: the service accepts only IDs above the last it holds. */
const AUDIT_ROW_COUNTER = "push_audit_row";

/**
 * The user counts last sent for each realm, as the canonical string the
 * caller stored ({@link putPushCountsSent}). One BatchGetItem per 100 realms.
 * @returns realm ID → counts; realms never reported are absent
 */
export async function getPushCountsSent(store: Store, realmIds: number[]): Promise<Map<number, string>> {
  const items = await batchGet(store, realmIds.map((id) => keys.realmPushState(id)));
  const sent = new Map<number, string>();
  for (const item of items) {
    if (typeof item.realm_id === "number" && typeof item.counts === "string") sent.set(item.realm_id, item.counts);
  }
  return sent;
}

/**
 * Remembers the counts just sent for a realm: one PutItem of a few dozen
 * bytes. (A realm whose deletion finishes between the upload and this write
 * keeps this one small item; nothing reads it again.)
 * @param sentAt UNIX seconds
 */
export async function putPushCountsSent(store: Store, realmId: number, counts: string, sentAt: number): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.realmPushState(realmId), type: "realm_push_state", realm_id: realmId, counts, sent_at: sentAt },
    }),
  );
}

/**
 * Reserves `count` IDs for uploaded rows, every one above `above` (the
 * service's `last_realmauditlog_id`): the counter is first raised to
 * `above` when it is lower (a new registration, a service that lost data),
 * then `count` IDs are taken with one atomic ADD. Two UpdateItems.
 * @returns the first ID of `[first, first + count)`
 */
export async function allocatePushAuditRowIds(store: Store, count: number, above: number): Promise<number> {
  await writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.counter(AUDIT_ROW_COUNTER),
      UpdateExpression: "SET #v = :above",
      ConditionExpression: "attribute_not_exists(#v) OR #v < :above",
      ExpressionAttributeNames: { "#v": "value" },
      ExpressionAttributeValues: { ":above": above },
    }),
  );
  return allocateIds(store, AUDIT_ROW_COUNTER, count);
}
