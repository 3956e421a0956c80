import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { isConditionFailure } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { PresenceRecord } from "./records/presence.js";


/**
 * Records a presence ping with one conditional UpdateItem that is skipped
 * when nothing would change within `minIntervalSeconds` (Zulip's
 * PRESENCE_UPDATE_MIN_FREQ_SECONDS coalescing): an `active` ping writes when
 * the stored `last_active_time` is missing or older, an `idle` ping when
 * `last_connected_time` is older. An active ping also moves
 * `last_connected_time`, keeping it ≥ `last_active_time`.
 * @param nowSeconds UNIX seconds of the ping
 * @returns the item as it was before the write (undefined when created),
 *   or `"unchanged"` when the condition skipped the write
 */
export async function recordPresencePing(
  store: Store,
  realmId: number,
  user: { user_id: number; is_bot: boolean; date_joined: number },
  active: boolean,
  nowSeconds: number,
  updateId: number,
  minIntervalSeconds: number,
): Promise<PresenceRecord | undefined | "unchanged"> {
  const stale = nowSeconds - minIntervalSeconds;
  const condition = active
    ? "attribute_not_exists(pk) OR attribute_not_exists(last_active_time) OR last_active_time < :stale"
    : "attribute_not_exists(pk) OR last_connected_time < :stale";
  try {
    const out = await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.presence(realmId, user.user_id),
        UpdateExpression:
          "SET #type = :type, realm_id = :realm, user_id = :user, is_bot = :bot, date_joined = :joined, " +
          "last_connected_time = :now, last_update_id = :uid" +
          (active ? ", last_active_time = :now" : ""),
        ConditionExpression: condition,
        ExpressionAttributeNames: { "#type": "type" },
        ExpressionAttributeValues: {
          ":type": "presence",
          ":realm": realmId,
          ":user": user.user_id,
          ":bot": user.is_bot,
          ":joined": user.date_joined,
          ":now": nowSeconds,
          ":uid": updateId,
          ":stale": stale,
        },
        ReturnValues: "ALL_OLD",
      }),
    );
    return out.Attributes ? recordOf<PresenceRecord>(out.Attributes) : undefined;
  } catch (err) {
    if (isConditionFailure(err)) return "unchanged";
    throw err;
  }
}

/** Reads one user's presence, or undefined. One round trip. */
export async function getPresence(store: Store, realmId: number, userId: number): Promise<PresenceRecord | undefined> {
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.presence(realmId, userId) }));
  return out.Item ? recordOf<PresenceRecord>(out.Item) : undefined;
}

/**
 * Reads a realm's presence items (one Query page per 1 MB, about 8,000
 * users), optionally only those changed after `afterUpdateId`
 * (a filter: it saves bandwidth, not read capacity).
 */
export async function listRealmPresence(store: Store, realmId: number, afterUpdateId?: number): Promise<PresenceRecord[]> {
  const pk = keys.realmPresence(realmId).pk;
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk",
    ...(afterUpdateId !== undefined
      ? { FilterExpression: "last_update_id > :after", ExpressionAttributeValues: { ":pk": pk, ":after": afterUpdateId } }
      : { ExpressionAttributeValues: { ":pk": pk } }),
  });
  return items.map((item) => recordOf<PresenceRecord>(item));
}
