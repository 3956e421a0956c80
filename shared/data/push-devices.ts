import { createHash } from "node:crypto";
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { batchGet, batchGetByIds } from "./batch-get.js";
import { batchWrite } from "./batch-write.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { PushDeviceRecord } from "./records/push-device.js";

/**
 * Users' registered mobile devices (Zulip's `PushDeviceToken`): one item per
 * (user, kind, token) in the user's `PUSHDEV#<user_id>` partition, and a
 * count item beside them kept in the same transaction, so that deciding
 * who gets a push reads many users' counts with one BatchGet and never
 * lists devices of users who have none.
 */

/** Most devices read for one user: a phone and a tablet or two; stale tokens are dropped when the service reports them. */
export const MAX_PUSH_DEVICES_READ = 100;

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function deviceKey(userId: number, kind: number, token: string) {
  return keys.pushDevice(userId, kind, tokenHash(token));
}

function countUpdate(store: Store, userId: number, delta: number) {
  return {
    Update: {
      TableName: store.table,
      Key: keys.pushDeviceCount(userId),
      UpdateExpression: "ADD #n :d SET #t = :t, #u = :u",
      ExpressionAttributeNames: { "#n": "device_count", "#t": "type", "#u": "user_id" },
      ExpressionAttributeValues: { ":d": delta, ":t": "push_device_count", ":u": userId },
    },
  };
}

/**
 * Registers a device unless the user already has it (Zulip's
 * `bulk_create(..., ignore_conflicts=True)`): one TransactWriteItems (the
 * device, and the user's count + 1).
 * @returns true when the device is new, false when it was already registered (nothing written)
 */
export async function addPushDevice(store: Store, device: PushDeviceRecord): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: store.table,
            Item: { ...deviceKey(device.user_id, device.kind, device.token), type: "push_device", ...device },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
        countUpdate(store, device.user_id, 1),
      ],
    }),
  );
}

/**
 * Removes one device of a user: one TransactWriteItems (the device, and the count − 1).
 * @returns false when the user had no such device (nothing written)
 */
export async function removePushDevice(store: Store, userId: number, kind: number, token: string): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: store.table, Key: deviceKey(userId, kind, token), ConditionExpression: "attribute_exists(pk)" } },
        countUpdate(store, userId, -1),
      ],
    }),
  );
}

/** The user's device with this token, of either kind (Zulip's test notification looks a token up so). One BatchGet. */
export async function findPushDeviceByToken(store: Store, userId: number, token: string): Promise<PushDeviceRecord | undefined> {
  const items = await batchGet(store, [deviceKey(userId, 1, token), deviceKey(userId, 2, token)], true);
  const found = items.map((i) => recordOf<PushDeviceRecord>(i)).sort((a, b) => a.kind - b.kind);
  return found[0];
}

/** A user's devices (at most {@link MAX_PUSH_DEVICES_READ}), oldest first. One Query. */
export async function listPushDevices(store: Store, userId: number): Promise<PushDeviceRecord[]> {
  const items = await queryAll(
    store,
    {
      KeyConditionExpression: "pk = :pk",
      FilterExpression: "#t = :device",
      ExpressionAttributeNames: { "#t": "type" },
      ExpressionAttributeValues: { ":pk": keys.userPushDevices(userId).pk, ":device": "push_device" },
    },
    MAX_PUSH_DEVICES_READ,
  );
  return items.map((i) => recordOf<PushDeviceRecord>(i)).sort((a, b) => a.date_created - b.date_created);
}

/** How many devices each user has registered (users without any are absent). One BatchGet per 100 users. */
export async function pushDeviceCounts(store: Store, userIds: readonly number[]): Promise<Map<number, number>> {
  const counts = await batchGetByIds<number, { user_id: number; device_count?: number }>(
    store,
    userIds,
    (id) => keys.pushDeviceCount(id),
    (item) => item.user_id,
  );
  const out = new Map<number, number>();
  for (const [id, item] of counts) if ((item.device_count ?? 0) > 0) out.set(id, item.device_count!);
  return out;
}

/**
 * Deletes all of a user's devices and their count (deactivation, Zulip's
 * `clear_push_device_tokens`): one Query and BatchWriteItems.
 * @returns the devices that were deleted
 */
export async function deleteAllPushDevices(store: Store, userId: number): Promise<PushDeviceRecord[]> {
  const devices = await listPushDevices(store, userId);
  await batchWrite(store, [], [...devices.map((d) => deviceKey(userId, d.kind, d.token)), keys.pushDeviceCount(userId)]);
  return devices;
}
