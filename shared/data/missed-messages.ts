import { DeleteCommand, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { batchGetByIds } from "./batch-get.js";
import { isConditionFailure } from "./conditions.js";
import { keys } from "./keys.js";
import type { PresenceRecord } from "./records/presence.js";

/**
 * A user's missed messages waiting for their email batch (Zulip's
 * `ScheduledMessageNotificationEmail` rows of one user): one item per user,
 * `MISSEDMSG#<user_id>` / `PENDING`, created by the first notifiable
 * message of a batch (which also schedules the batch's job) and taken whole
 * by that job when the batch ends. docs/notifications.md has the design.
 */
export interface PendingMissedMessages {
  realm_id: number;
  user_id: number;
  /** UNIX seconds when the batch ends: its first message's time plus the user's batching period. */
  due_at: number;
  /** Message ID → trigger (`shared/domain/notification-data.ts`), from entries `"<id>:<trigger>"`. */
  messages: Map<number, string>;
  /** Bumped by every addition: the job takes the item only at the version it read. */
  version: number;
}

/** Most messages one batch holds: the item stays far below DynamoDB's 400 KB (later ones are left out of the email). */
export const MAX_PENDING_MISSED_MESSAGES = 500;

/** Seconds a pending item outlives its due time before DynamoDB TTL may remove it (its job normally takes it at once). */
const PENDING_TTL_SLACK_SECONDS = 86_400;

/**
 * Adds one message to a user's pending batch, creating the batch (with
 * `dueAt`) when there is none: one UpdateItem (`ADD` to a string set, so
 * a redelivered job adds nothing twice).
 * @returns `"new"` when this call created the batch (the caller schedules
 *   its job), `"added"` when it joined one, `"full"` when the batch already
 *   holds {@link MAX_PENDING_MISSED_MESSAGES} messages (nothing written)
 */
export async function addPendingMissedMessage(
  store: Store,
  entry: { realmId: number; userId: number; messageId: number; trigger: string },
  dueAt: number,
): Promise<"new" | "added" | "full"> {
  try {
    const out = await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.missedMessages(entry.userId),
        UpdateExpression:
          "SET #type = :type, realm_id = :realm, user_id = :user, due_at = if_not_exists(due_at, :due), " +
          "expires_at = if_not_exists(expires_at, :exp) ADD entries :entry, version :one",
        ConditionExpression: "attribute_not_exists(entries) OR size(entries) < :max",
        ExpressionAttributeNames: { "#type": "type" },
        ExpressionAttributeValues: {
          ":type": "missed_messages",
          ":realm": entry.realmId,
          ":user": entry.userId,
          ":due": dueAt,
          ":exp": dueAt + PENDING_TTL_SLACK_SECONDS,
          ":entry": new Set([`${entry.messageId}:${entry.trigger}`]),
          ":one": 1,
          ":max": MAX_PENDING_MISSED_MESSAGES,
        },
        ReturnValues: "UPDATED_OLD",
      }),
    );
    return out.Attributes?.due_at === undefined ? "new" : "added";
  } catch (err) {
    if (isConditionFailure(err)) return "full";
    throw err;
  }
}

/** Reads a user's pending batch (strongly consistent), or undefined. One round trip. */
export async function getPendingMissedMessages(store: Store, userId: number): Promise<PendingMissedMessages | undefined> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.missedMessages(userId), ConsistentRead: true }),
  );
  const item = out.Item;
  if (!item) return undefined;
  const messages = new Map<number, string>();
  for (const entry of (item.entries as Set<string> | undefined) ?? []) {
    const [id, trigger] = String(entry).split(":");
    const messageId = Number(id);
    // Several triggers of one message (a redelivered decision with other settings): the first kept.
    if (Number.isInteger(messageId) && !messages.has(messageId)) messages.set(messageId, trigger ?? "");
  }
  return {
    realm_id: Number(item.realm_id),
    user_id: Number(item.user_id),
    due_at: Number(item.due_at),
    messages,
    version: Number(item.version),
  };
}

/**
 * Removes a pending batch if it is still at `version` (no message joined
 * since it was read): one conditional DeleteItem.
 * @returns false when a message joined meanwhile (nothing removed: read it again)
 */
export async function takePendingMissedMessages(store: Store, userId: number, version: number): Promise<boolean> {
  try {
    await store.db.send(
      new DeleteCommand({
        TableName: store.table,
        Key: keys.missedMessages(userId),
        ConditionExpression: "version = :v",
        ExpressionAttributeValues: { ":v": version },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * The presence items of some users of a realm, by user ID (eventually
 * consistent BatchGetItem, one call per 100 users in parallel); users
 * without presence are absent.
 */
export async function presenceOfUsers(store: Store, realmId: number, userIds: number[]): Promise<Map<number, PresenceRecord>> {
  return batchGetByIds<number, PresenceRecord>(store, userIds, (id) => keys.presence(realmId, id), (r) => r.user_id);
}
