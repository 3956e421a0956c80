import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { putAllIfAbsent, writeIf } from "./conditions.js";
import { keys } from "./keys.js";
import { recordOf } from "./items.js";
import { queryAll } from "./query.js";
import type { RealmEmojiRecord } from "./records/realm-emoji.js";

/**
 * Custom emoji of a realm, active and deactivated: one Query of the realm
 * partition's `REALMEMOJI#` range (Zulip's `get_all_custom_emoji_for_realm`;
 * an organization has at most a few thousand, each item under 300 bytes).
 */
export async function listRealmEmoji(store: Store, realmId: number): Promise<RealmEmojiRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.realmEmojiPrefix },
    ConsistentRead: true,
  });
  return items.map((item) => recordOf<RealmEmojiRecord>(item));
}

/**
 * Stores a new, active custom emoji together with the claim on its name, in
 * one transaction.
 * @returns false when an active emoji of that name exists (nothing written)
 */
export async function putRealmEmoji(store: Store, emoji: RealmEmojiRecord): Promise<boolean> {
  return putAllIfAbsent(store, [
    { ...keys.realmEmoji(emoji.realm_id, emoji.id), type: "realm_emoji", ...emoji },
    { ...keys.realmEmojiName(emoji.realm_id, emoji.name), type: "realm_emoji_name", emoji_id: emoji.id },
  ]);
}

/**
 * Deactivates an active custom emoji and releases its name, in one
 * transaction (the image stays: old messages and reactions still show it).
 * @returns false when the emoji is not active (nothing written)
 */
export async function deactivateRealmEmoji(store: Store, emoji: RealmEmojiRecord): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: store.table,
            Key: keys.realmEmoji(emoji.realm_id, emoji.id),
            UpdateExpression: "SET deactivated = :true",
            ConditionExpression: "attribute_exists(pk) AND deactivated = :false",
            ExpressionAttributeValues: { ":true": true, ":false": false },
          },
        },
        {
          Delete: {
            TableName: store.table,
            Key: keys.realmEmojiName(emoji.realm_id, emoji.name),
            ConditionExpression: "emoji_id = :id",
            ExpressionAttributeValues: { ":id": emoji.id },
          },
        },
      ],
    }),
  );
}
