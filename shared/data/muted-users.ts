import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { MutedUserRecord } from "./records/muted-user.js";

/**
 * Records that `userId` mutes `mutedUserId`: the mute item (only if absent)
 * and the muted user's `muted_by_ids` set, in one transaction. One round trip.
 * @param timestamp UNIX seconds
 * @returns false when the mute already existed or the muted user is missing (nothing written)
 */
export async function addMutedUser(
  store: Store,
  realmId: number,
  mute: MutedUserRecord,
): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: store.table,
            Item: { ...keys.mutedUser(mute.user_id, mute.muted_user_id), type: "muted_user", ...mute },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
        {
          Update: {
            TableName: store.table,
            Key: keys.user(realmId, mute.muted_user_id),
            UpdateExpression: "ADD muted_by_ids :me",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":me": new Set([mute.user_id]) },
          },
        },
      ],
    }),
  );
}

/**
 * Removes the mute of `mutedUserId` by `userId` (the item, only if present,
 * and the entry of the muted user's `muted_by_ids`) in one transaction.
 * One round trip.
 * @returns false when there was no such mute (nothing written)
 */
export async function removeMutedUser(store: Store, realmId: number, userId: number, mutedUserId: number): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: store.table,
            Key: keys.mutedUser(userId, mutedUserId),
            ConditionExpression: "attribute_exists(pk)",
          },
        },
        {
          Update: {
            TableName: store.table,
            Key: keys.user(realmId, mutedUserId),
            UpdateExpression: "DELETE muted_by_ids :me",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":me": new Set([userId]) },
          },
        },
      ],
    }),
  );
}

/**
 * The users `userId` mutes, oldest ID first: one strongly consistent Query
 * of the muter's partition (about 25,000 mutes per 1 MB page).
 */
export async function listMutedUsers(store: Store, userId: number): Promise<MutedUserRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.userMutes(userId).pk },
    ConsistentRead: true,
  });
  return items.map((item) => recordOf<MutedUserRecord>(item));
}
