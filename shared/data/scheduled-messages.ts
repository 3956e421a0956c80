import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { isConditionFailure, writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { ScheduledMessageRecord } from "./records/scheduled-message.js";

/**
 * The scheduled-messages entity: each of a user's scheduled messages is one
 * item in the user's partition (`SCHED#<user_id>`, sort key the padded ID),
 * so one Query lists them and a key names each one; another user's ID is
 * simply absent (docs/data-model.md, "Scheduled messages"). Every change is
 * conditional: edits and deletions on the version they read and on no
 * delivery being under way, delivery on the version its job was made for,
 * so a duplicate SQS delivery, an edit racing a delivery, or two edits
 * cannot both win.
 */

function scheduledItem(rec: ScheduledMessageRecord): Record<string, unknown> {
  const { type: messageType, ...rest } = rec;
  return { ...keys.scheduledMessage(rec.user_id, rec.id), type: "scheduled_message", ...rest, message_type: messageType };
}

function scheduledOf(item: Record<string, unknown>): ScheduledMessageRecord {
  const { message_type: messageType, ...rest } = recordOf<
    Omit<ScheduledMessageRecord, "type"> & { message_type: ScheduledMessageRecord["type"] }
  >(item);
  return { ...rest, type: messageType };
}

/** Stores a new scheduled message (ID already allocated): one PutItem. */
export async function putNewScheduledMessage(store: Store, rec: ScheduledMessageRecord): Promise<void> {
  await store.db.send(
    new PutCommand({ TableName: store.table, Item: scheduledItem(rec), ConditionExpression: "attribute_not_exists(pk)" }),
  );
}

/** One scheduled message of a user, or undefined: one strongly consistent GetItem. */
export async function getScheduledMessage(store: Store, userId: number, id: number): Promise<ScheduledMessageRecord | undefined> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.scheduledMessage(userId, id), ConsistentRead: true }),
  );
  return out.Item ? scheduledOf(out.Item) : undefined;
}

/** Every scheduled message of a user, in ID order: one strongly consistent Query per 1 MB page. */
export async function listUserScheduledMessages(store: Store, userId: number): Promise<ScheduledMessageRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.userScheduledMessages(userId).pk },
    ConsistentRead: true,
  });
  return items.map(scheduledOf);
}

/**
 * Replaces a scheduled message with its edited form (one conditional
 * PutItem), if it is still at `expectedVersion` and no delivery claimed it.
 * @returns false when it changed, was claimed or was deleted meanwhile (nothing written)
 */
export async function replaceScheduledMessage(store: Store, rec: ScheduledMessageRecord, expectedVersion: number): Promise<boolean> {
  return writeIf(
    store,
    new PutCommand({
      TableName: store.table,
      Item: scheduledItem(rec),
      ConditionExpression: "version = :v AND attribute_not_exists(claimed_ms)",
      ExpressionAttributeValues: { ":v": expectedVersion },
    }),
  );
}

/**
 * Deletes a scheduled message the user cancels (one conditional DeleteItem),
 * unless a delivery claimed it.
 * @returns false when there is no such item, or it is being sent
 */
export async function removeScheduledMessage(store: Store, userId: number, id: number): Promise<boolean> {
  return writeIf(
    store,
    new DeleteCommand({
      TableName: store.table,
      Key: keys.scheduledMessage(userId, id),
      ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(claimed_ms)",
    }),
  );
}

/**
 * Claims a due scheduled message for sending (one conditional UpdateItem):
 * only one caller wins, and only while it is at `version`, not failed and
 * not claimed.
 * @param nowMs the claim's time (stored as `claimed_ms`)
 * @returns false when another delivery claimed it, or it changed, failed or was deleted
 */
export async function claimScheduledMessage(
  store: Store,
  userId: number,
  id: number,
  version: number,
  nowMs: number,
): Promise<boolean> {
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.scheduledMessage(userId, id),
      UpdateExpression: "SET claimed_ms = :now",
      ConditionExpression: "version = :v AND failed = :false AND attribute_not_exists(claimed_ms)",
      ExpressionAttributeValues: { ":now": nowMs, ":v": version, ":false": false },
    }),
  );
}

/** Deletes a scheduled message its claimant sent (one DeleteItem, conditional on that claim). */
export async function removeDeliveredScheduledMessage(store: Store, userId: number, id: number, claimedMs: number): Promise<void> {
  await writeIf(
    store,
    new DeleteCommand({
      TableName: store.table,
      Key: keys.scheduledMessage(userId, id),
      ConditionExpression: "claimed_ms = :c",
      ExpressionAttributeValues: { ":c": claimedMs },
    }),
  );
}

/**
 * Records a failed delivery (Zulip's `failed` and `failure_message`) and
 * drops the claim: one UpdateItem, conditional on the item existing.
 * @returns the failed scheduled message, or undefined when it no longer exists
 */
export async function markScheduledMessageFailed(
  store: Store,
  userId: number,
  id: number,
  failureMessage: string,
): Promise<ScheduledMessageRecord | undefined> {
  try {
    const out = await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.scheduledMessage(userId, id),
        UpdateExpression: "SET failed = :true, failure_message = :m REMOVE claimed_ms",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":true": true, ":m": failureMessage },
        ReturnValues: "ALL_NEW",
      }),
    );
    return out.Attributes ? scheduledOf(out.Attributes) : undefined;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}
