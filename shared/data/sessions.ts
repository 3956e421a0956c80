import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { batchWrite } from "./batch-write.js";
import type { Store } from "./client.js";
import { recordOf } from "./items.js";
import { keyFits, keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { SessionRecord } from "./records/session.js";
import { TTL_ATTRIBUTE } from "./table.js";

/**
 * Writes a new session under the SHA-256 hex of its id, with its user
 * index (gsi1) and the TTL attribute set to `expires_at`. One PutItem,
 * conditional so that a (vanishingly unlikely) repeated id never takes
 * over another login.
 * @param idHash SHA-256 hex of the `sessionid` cookie
 * @throws ConditionalCheckFailedException when an item with that key exists
 */
export async function putNewSession(store: Store, idHash: string, session: SessionRecord): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: {
        ...keys.session(idHash),
        ...keys.sessionByUser(session.realm_id, session.user_id, idHash),
        type: "session",
        ...session,
        [TTL_ATTRIBUTE]: session.expires_at,
      },
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
}

/**
 * Reads a session by the SHA-256 hex of its id: one strongly consistent
 * GetItem (a session written by the login just before, or deleted by a
 * logout, is seen at once). An expired item that TTL has not deleted yet is
 * returned as stored; the caller compares `expires_at` with its clock.
 * @returns the session, or undefined
 */
export async function sessionByHash(store: Store, idHash: string): Promise<SessionRecord | undefined> {
  const key = keys.session(idHash);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  if (!out.Item) return undefined;
  const { realm_id, user_id, csrf_token, created_at, expires_at } = recordOf<SessionRecord>(out.Item);
  return { realm_id, user_id, csrf_token, created_at, expires_at };
}

/** Deletes one session (nothing when it is gone already). One DeleteItem. */
export async function deleteSessionItem(store: Store, idHash: string): Promise<void> {
  const key = keys.session(idHash);
  if (!keyFits(key)) return;
  await store.db.send(new DeleteCommand({ TableName: store.table, Key: key }));
}

async function deleteFound(store: Store, input: Parameters<typeof queryAll>[1]): Promise<number> {
  const items = await queryAll(store, { ...input, IndexName: "gsi1", ProjectionExpression: "pk, sk" });
  if (items.length > 0) await batchWrite(store, [], items.map((item) => ({ pk: item.pk, sk: item.sk })));
  return items.length;
}

/**
 * Deletes every session of one user: one Query of the realm's session index
 * on the user's prefix, then BatchWriteItem deletes (25 per call). The index
 * is eventually consistent, so a login in the same instant may survive it;
 * such a session is still refused, since every request re-reads the user.
 * @returns how many sessions were deleted
 */
export async function deleteUserSessionItems(store: Store, realmId: number, userId: number): Promise<number> {
  return deleteFound(store, {
    KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :user)",
    ExpressionAttributeValues: {
      ":pk": keys.sessionByUser(realmId).gsi1pk,
      ":user": keys.sessionByUser(realmId, userId).gsi1sk,
    },
  });
}

/**
 * Deletes every session of an organization: one Query of its session index
 * (a page per 1 MB), then BatchWriteItem deletes.
 * @returns how many sessions were deleted
 */
export async function deleteRealmSessionItems(store: Store, realmId: number): Promise<number> {
  return deleteFound(store, {
    KeyConditionExpression: "gsi1pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.sessionByUser(realmId).gsi1pk },
  });
}
