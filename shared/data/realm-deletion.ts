import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { batchWrite } from "./batch-write.js";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keyFits, keys, pad } from "./keys.js";
import { queryAll } from "./query.js";
import type { MessageRecord } from "./records/message.js";
import type { RealmRecord } from "./records/realm.js";
import type { UserRecord } from "./records/user.js";

/**
 * The data side of deleting an organization (docs/data-model.md, "Deleting
 * an organization"): each function finds one family of the realm's items by
 * key — the realm partition, then the partitions its users, streams,
 * conversations and messages name — and deletes at most a bounded batch of
 * them. Every function is idempotent (deleting a missing item is not an
 * error) and reads what is left rather than trusting a cursor alone, so a
 * retried job does no harm. No Scan.
 */

type Key = { pk: string; sk: string };

const keyOf = (item: Record<string, unknown>): Key => ({ pk: String(item.pk), sk: String(item.sk) });

/** Keys of the first `limit` items of a partition (strongly consistent, keys only), optionally after a sort key. */
async function partitionKeys(store: Store, pk: string, limit: number, afterSk?: string): Promise<Key[]> {
  const items = await queryAll(
    store,
    {
      KeyConditionExpression: afterSk === undefined ? "pk = :pk" : "pk = :pk AND sk > :after",
      ExpressionAttributeValues: { ":pk": pk, ...(afterSk === undefined ? {} : { ":after": afterSk }) },
      ProjectionExpression: "pk, sk",
      ConsistentRead: true,
    },
    limit,
  );
  return items.map(keyOf);
}

async function deleteAll(store: Store, doomed: Key[]): Promise<void> {
  if (doomed.length > 0) await batchWrite(store, [], doomed, 8);
}

/**
 * Deletes up to `limit` of a realm's event queues, found through their
 * realm index (gsi1 `REALMQUEUES#<realm_id>`): one Query and BatchWrites.
 * @returns how many queue items were deleted (0: none left)
 */
export async function deleteRealmQueuesBatch(store: Store, realmId: number, limit: number): Promise<number> {
  const items = await queryAll(
    store,
    {
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.eventQueueByRealm(realmId).gsi1pk },
      ProjectionExpression: "pk, sk",
    },
    limit,
  );
  await deleteAll(store, items.map(keyOf));
  return items.length;
}

/**
 * A page of a realm's messages after `afterId`, ascending, from the
 * messages' realm index (gsi4 `REALMMSG#<realm_id>`, which every message
 * carries, stream and private alike): one Query.
 */
export async function realmMessagesAfter(store: Store, realmId: number, afterId: number, limit: number): Promise<MessageRecord[]> {
  const items = await queryAll(
    store,
    {
      IndexName: "gsi4",
      KeyConditionExpression: "gsi4pk = :pk AND gsi4sk > :after",
      ExpressionAttributeValues: { ":pk": keys.messageByRealm(realmId).gsi4pk, ":after": pad(afterId) },
    },
    limit,
  );
  return items.map((item) => recordOf<MessageRecord>(item));
}

/** What deleting one message removes besides its own partition. */
export interface DoomedMessage {
  messageId: number;
  /** Every term the message was ever indexed under (current and earlier content and topics). */
  terms: string[];
  /** Topics (stream ID, name) whose policy reverse items go with the realm. */
  topics: { streamId: number; topic: string }[];
}

/**
 * Deletes messages of a realm: each one's search postings and topic-policy
 * reverse items, its `RECIPIENTS#` chunks, then the message item (last, so
 * that a retry still finds what the message names). One Query per message
 * (in parallel) and BatchWrites. UserMessage rows go with their users'
 * partitions ({@link deleteUserDataBatch}).
 */
export async function deleteMessagesBatch(store: Store, realmId: number, doomed: DoomedMessage[]): Promise<void> {
  const partitions = await Promise.all(doomed.map((m) => partitionKeys(store, keys.messagePartition(m.messageId).pk, 1000)));
  const first: Key[] = [];
  const seenPolicies = new Set<string>();
  for (const m of doomed) {
    for (const term of m.terms) {
      const key = keys.searchPosting(realmId, term, m.messageId);
      if (keyFits(key)) first.push(key);
    }
    for (const { streamId, topic } of m.topics) {
      const key = keys.topicPolicyUsers(streamId, topic);
      if (!keyFits(key) || seenPolicies.has(key.pk)) continue;
      seenPolicies.add(key.pk);
      first.push(key);
    }
  }
  const messageKeys = doomed.map((m) => keys.message(m.messageId));
  const messageSks = new Set(messageKeys.map((k) => `${k.pk}|${k.sk}`));
  for (const keyList of partitions) for (const k of keyList) if (!messageSks.has(`${k.pk}|${k.sk}`)) first.push(k);
  await deleteAll(store, first);
  await deleteAll(store, messageKeys);
}

/**
 * A page of a realm's users after `afterUserId`, ascending by ID: one
 * strongly consistent Query of the realm partition's `USER#` range.
 */
export async function realmUsersAfter(store: Store, realmId: number, afterUserId: number, limit: number): Promise<UserRecord[]> {
  const items = await queryAll(
    store,
    {
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
      ExpressionAttributeValues: {
        ":pk": keys.realmPartition(realmId).pk,
        ":from": keys.user(realmId, afterUserId + 1).sk,
        ":to": `${keys.userPrefix}${"9".repeat(16)}`,
      },
      ConsistentRead: true,
    },
    limit,
  );
  return items.map((item) => recordOf<UserRecord>(item));
}

/**
 * Deletes up to `budget` items of one user's own partitions — UserMessage
 * rows (`UM#`), subscriptions (`SUBS#`, whose subscriber-index entries go
 * with them), the event log (`UEVT#`), drafts, mutes, topic policies (with
 * each topic's policy reverse item), mobile devices (`PUSHDEV#`) — then the user's alert words, API
 * key item and pending missed-message batch. Strongly consistent keys-only Queries and BatchWrites.
 * @param apiKeyHash SHA-256 of the user's current API key (the key item's name)
 * @returns `done`: nothing of the user is left outside the realm partition; `deleted`: items of the budget used
 */
export async function deleteUserDataBatch(
  store: Store,
  userId: number,
  apiKeyHash: string,
  budget: number,
): Promise<{ done: boolean; deleted: number }> {
  const partitions = [
    keys.userMessages(userId).pk,
    keys.userSubscriptions(userId).pk,
    keys.userEvents(userId).pk,
    keys.userDrafts(userId).pk,
    keys.userScheduledMessages(userId).pk,
    keys.userMutes(userId).pk,
    keys.userTopics(userId).pk,
    // Mobile devices and their count (Zulip's `PushDeviceToken` rows go with the user).
    keys.userPushDevices(userId).pk,
  ];
  let left = budget;
  for (const pk of partitions) {
    while (left > 0) {
      const found = await partitionKeys(store, pk, Math.min(left, 1000));
      if (found.length === 0) break;
      const doomed = [...found];
      if (pk === keys.userTopics(userId).pk) {
        // sk = <padded stream ID>#<lower-cased topic>: the topic's reverse item goes too.
        for (const k of found) {
          const cut = k.sk.indexOf("#");
          doomed.push(keys.topicPolicyUsers(Number(k.sk.slice(0, cut)), k.sk.slice(cut + 1)));
        }
      }
      await deleteAll(store, doomed);
      left -= found.length;
    }
    if (left <= 0) return { done: false, deleted: budget - left };
  }
  await deleteAll(store, [keys.alertWords(userId), keys.apiKey(apiKeyHash), keys.missedMessages(userId)]);
  return { done: true, deleted: budget - left };
}

/**
 * Deletes up to `limit` items of the realm's public-stream event log
 * (`REVT#`), its stream-typing log (`RTYP#`), its presence partition
 * (`PRESENCE#`) and then its invitations (`INVITES#`; their links'
 * confirmations expire by TTL, and a link of a deleted realm finds no realm).
 * @returns how many items were deleted (0: both are empty)
 */
export async function deleteRealmLogsBatch(store: Store, realmId: number, limit: number): Promise<number> {
  let deleted = 0;
  const pks = [keys.realmPublicEvents(realmId).pk, keys.realmTypingEvents(realmId).pk, keys.realmPresence(realmId).pk, keys.realmInvites(realmId).pk];
  for (const pk of pks) {
    const found = await partitionKeys(store, pk, limit - deleted);
    await deleteAll(store, found);
    deleted += found.length;
    if (deleted >= limit) break;
  }
  return deleted;
}

/** The files a batch of realm-partition items names (see {@link deleteRealmPartitionBatch}). */
export interface DoomedRealmFiles {
  /** Attachments' path IDs (their S3 keys). */
  uploadPathIds: string[];
  /** The stored thumbnails of those that are images: path ID and format names. */
  thumbnails: { pathId: string; names: string[] }[];
  /** Custom emoji's stored file names, and whether each has a still image. */
  emoji: { file_name: string; is_animated: boolean }[];
}

/**
 * Deletes up to `limit` items of the realm's own partition after sort key
 * `afterSk` (from the start when undefined), except the realm item itself (deleted last, by
 * {@link deleteRealmRecord}): users, emails, streams, stream names,
 * conversation claims and every other realm-scoped item type. A stream or
 * conversation claim takes its recipient record (`RECIPIENT#`) with it.
 * One strongly consistent Query and BatchWrites.
 * @param beforeDelete called with the batch's files before any item goes:
 *   the path IDs (S3 keys) of its attachments and the file names of its
 *   custom emoji (active or deactivated); so the files are deleted first
 *   and a failure retries with the items still there
 * @returns the last sort key read, or undefined when the partition holds nothing more after `afterSk`
 */
export async function deleteRealmPartitionBatch(
  store: Store,
  realmId: number,
  afterSk: string | undefined,
  limit: number,
  beforeDelete?: (files: DoomedRealmFiles) => Promise<void>,
): Promise<string | undefined> {
  const items = await queryAll(
    store,
    {
      KeyConditionExpression: afterSk === undefined ? "pk = :pk" : "pk = :pk AND sk > :after",
      ExpressionAttributeValues: { ":pk": keys.realmPartition(realmId).pk, ...(afterSk === undefined ? {} : { ":after": afterSk }) },
      ProjectionExpression: "pk, sk, recipient_id, file_name, is_animated, #image",
      ExpressionAttributeNames: { "#image": "image" },
      ConsistentRead: true,
    },
    limit,
  );
  const emoji: DoomedRealmFiles["emoji"] = [];
  for (const item of items) {
    if (String(item.sk).startsWith(keys.realmEmojiPrefix) && typeof item.file_name === "string") {
      emoji.push({ file_name: item.file_name, is_animated: item.is_animated === true });
    }
  }
  const realmSk = keys.realm(realmId).sk;
  const doomed: Key[] = [];
  for (const item of items) {
    const key = keyOf(item);
    if (key.sk === realmSk) continue;
    doomed.push(key);
    const isClaim = key.sk.startsWith(keys.streamPrefix) || key.sk.startsWith(keys.directRecipientPrefix);
    if (isClaim && typeof item.recipient_id === "number") doomed.push(keys.recipient(item.recipient_id));
  }
  const uploads = doomed.filter((k) => k.sk.startsWith(keys.attachmentPrefix)).map((k) => k.sk.slice(keys.attachmentPrefix.length));
  const thumbnails: DoomedRealmFiles["thumbnails"] = [];
  for (const item of items) {
    const image = item.image as { thumbnails?: { name: string }[] } | undefined;
    if (String(item.sk).startsWith(keys.attachmentPrefix) && image?.thumbnails?.length) {
      thumbnails.push({ pathId: String(item.sk).slice(keys.attachmentPrefix.length), names: image.thumbnails.map((t) => t.name) });
    }
  }
  if (beforeDelete && uploads.length + emoji.length > 0) await beforeDelete({ uploadPathIds: uploads, thumbnails, emoji });
  await deleteAll(store, doomed);
  return items.length === 0 ? undefined : String(items[items.length - 1]!.sk);
}

/**
 * The last step: the realm's subdomain claim (only while it still names
 * this realm), its scheduled-deletion entry, then the realm item.
 */
export async function deleteRealmRecord(store: Store, realm: RealmRecord): Promise<void> {
  await writeIf(
    store,
    new DeleteCommand({
      TableName: store.table,
      Key: keys.realmBySubdomain(realm.string_id),
      ConditionExpression: "realm_id = :id",
      ExpressionAttributeValues: { ":id": realm.id },
    }),
  );
  const date = realm.demo_organization_scheduled_deletion_date;
  if (typeof date === "number") await deleteAll(store, [keys.demoDeletion(date, realm.id)]);
  await deleteAll(store, [keys.realm(realm.id)]);
}
