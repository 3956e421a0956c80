import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { keys } from "./keys.js";
import { recordOf } from "./items.js";
import { queryAll } from "./query.js";
import type { PlaygroundRecord } from "./records/playground.js";

/**
 * A realm's code playgrounds, by ID: one Query of the realm partition's
 * `PLAYGROUND#` range (an organization has a handful).
 */
export async function listRealmPlaygrounds(store: Store, realmId: number): Promise<PlaygroundRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.playgroundPrefix },
    ConsistentRead: true,
  });
  return items.map((item) => recordOf<PlaygroundRecord>(item));
}

/** Stores a new playground (its ID already allocated). One PutItem. */
export async function putPlayground(store: Store, playground: PlaygroundRecord): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.playground(playground.realm_id, playground.id), type: "playground", ...playground },
    }),
  );
}

/**
 * Deletes a playground.
 * @returns false when the realm has no playground of that ID (nothing deleted)
 */
export async function deletePlayground(store: Store, realmId: number, playgroundId: number): Promise<boolean> {
  return writeIf(
    store,
    new DeleteCommand({
      TableName: store.table,
      Key: keys.playground(realmId, playgroundId),
      ConditionExpression: "attribute_exists(pk)",
    }),
  );
}
