import { TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { failedConditionIndexes, writeIf } from "./conditions.js";
import { keys } from "./keys.js";

/*
 * The writes of a confirmed account change (a password reset, an email
 * change): each uses its link and changes the user in one transaction, so a
 * link is used exactly when its change is made.
 */

/** Why a link's transaction wrote nothing. */
export type AccountChangeOutcome = "ok" | "used" | "stale" | "email_taken";

const USE_LINK_CONDITION = "attribute_exists(pk) AND attribute_not_exists(used_at)";

function useLink(store: Store, keyHash: string, nowSeconds: number) {
  return {
    Update: {
      TableName: store.table,
      Key: keys.confirmation(keyHash),
      UpdateExpression: "SET used_at = :now",
      ConditionExpression: USE_LINK_CONDITION,
      ExpressionAttributeValues: { ":now": nowSeconds },
    },
  };
}

/** Runs a transaction whose first item uses the link; maps a failed condition to its item's meaning. */
async function transact(store: Store, items: NonNullable<TransactWriteCommand["input"]["TransactItems"]>, meanings: AccountChangeOutcome[]): Promise<AccountChangeOutcome> {
  try {
    await store.db.send(new TransactWriteCommand({ TransactItems: items }));
    return "ok";
  } catch (err) {
    const failed = failedConditionIndexes(err);
    if (failed.length === 0) throw err;
    return meanings[failed[0]!] ?? "stale";
  }
}

/**
 * A password reset: marks the link used and sets the user's password hash,
 * only while the user is active and still has the password hash and address
 * the reset was checked against (compare-and-set). One TransactWriteItems of
 * two updates.
 * @param expected.passwordHash the hash read before (null: the account had no password)
 * @returns `ok`; `used` when the link was used meanwhile; `stale` when the
 *   user changed (another password change, an email change, deactivation)
 */
export async function resetUserPassword(
  store: Store,
  change: {
    realmId: number;
    userId: number;
    keyHash: string;
    expected: { passwordHash: string | null; deliveryEmail: string };
    newPasswordHash: string;
    nowSeconds: number;
  },
): Promise<AccountChangeOutcome> {
  const hashCondition = change.expected.passwordHash === null ? "(attribute_not_exists(#ph) OR #ph = :null)" : "#ph = :oldHash";
  return transact(
    store,
    [
      useLink(store, change.keyHash, change.nowSeconds),
      {
        Update: {
          TableName: store.table,
          Key: keys.user(change.realmId, change.userId),
          UpdateExpression: "SET #ph = :newHash",
          ConditionExpression: `attribute_exists(pk) AND is_active = :true AND delivery_email = :email AND ${hashCondition}`,
          ExpressionAttributeNames: { "#ph": "password_hash" },
          ExpressionAttributeValues: {
            ":newHash": change.newPasswordHash,
            ":true": true,
            ":email": change.expected.deliveryEmail,
            ...(change.expected.passwordHash === null ? { ":null": null } : { ":oldHash": change.expected.passwordHash }),
          },
        },
      },
    ],
    ["used", "stale"],
  );
}

/**
 * Records the key of a user's latest email change link on the user (see
 * `UserRecord.email_change_key_hash`), voiding any earlier one. One
 * conditional UpdateItem.
 * @returns false when the user is gone or deactivated
 */
export async function setPendingEmailChange(store: Store, realmId: number, userId: number, keyHash: string): Promise<boolean> {
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.user(realmId, userId),
      UpdateExpression: "SET email_change_key_hash = :h",
      ConditionExpression: "attribute_exists(pk) AND is_active = :true",
      ExpressionAttributeValues: { ":h": keyHash, ":true": true },
    }),
  );
}

/**
 * A confirmed email change (Zulip's `do_change_user_delivery_email`): marks
 * the link used, sets the user's `delivery_email` and clears the pending
 * key, moves the unique-email item from the old address to the new one.
 * One TransactWriteItems of four items; the user must be active, still have
 * `oldEmail` and this link as the pending one, and the new address must be
 * free in the realm.
 * @param change.oldEmail, change.newEmail must differ in more than case (one unique-email item otherwise)
 * @returns `ok`; `used` for a link used meanwhile; `stale` for a user that
 *   changed (a newer link, another address, deactivation); `email_taken`
 *   when someone took the new address
 */
export async function changeUserDeliveryEmail(
  store: Store,
  change: { realmId: number; userId: number; keyHash: string; oldEmail: string; newEmail: string; nowSeconds: number },
): Promise<AccountChangeOutcome> {
  if (change.oldEmail.toLowerCase() === change.newEmail.toLowerCase()) {
    throw new Error("changeUserDeliveryEmail: the addresses differ only in case");
  }
  return transact(
    store,
    [
      useLink(store, change.keyHash, change.nowSeconds),
      {
        Update: {
          TableName: store.table,
          Key: keys.user(change.realmId, change.userId),
          UpdateExpression: "SET delivery_email = :new REMOVE email_change_key_hash",
          ConditionExpression: "attribute_exists(pk) AND is_active = :true AND delivery_email = :old AND email_change_key_hash = :h",
          ExpressionAttributeValues: { ":new": change.newEmail, ":old": change.oldEmail, ":h": change.keyHash, ":true": true },
        },
      },
      {
        Delete: {
          TableName: store.table,
          Key: keys.userByEmail(change.realmId, change.oldEmail),
          ConditionExpression: "user_id = :uid",
          ExpressionAttributeValues: { ":uid": change.userId },
        },
      },
      {
        Put: {
          TableName: store.table,
          Item: { ...keys.userByEmail(change.realmId, change.newEmail), type: "user_email", user_id: change.userId },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    ],
    ["used", "stale", "stale", "email_taken"],
  );
}
