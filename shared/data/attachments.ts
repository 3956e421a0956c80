import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGet } from "./batch-get.js";
import { batchWrite } from "./batch-write.js";
import type { Store } from "./client.js";
import { isConditionFailure, writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keyFits, keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { AttachmentMessageRef, AttachmentRecord, ImageAttachmentInfo } from "./records/attachment.js";

/** Most attachments one listing returns (Zulip lists them all; a bound keeps one answer under the response budget). */
export const OWNER_ATTACHMENTS_LIMIT = 1000;

function itemOf(record: AttachmentRecord): Record<string, unknown> {
  return {
    ...keys.attachment(record.realm_id, record.path_id),
    ...keys.attachmentByOwner(record.owner_id, record.id),
    ...(record.messages.length === 0 ? keys.attachmentUnclaimed(Math.floor(record.create_time / 1000), record.path_id) : {}),
    type: "attachment",
    ...record,
  };
}

/**
 * Stores a new attachment and adds its size to the realm's upload space in
 * one transaction; with a quota, only while the space stays within it.
 * @param quotaBytes the realm's quota in bytes; null for none
 * @returns false when the upload would exceed the quota (nothing written)
 * @throws Error for other storage failures (an existing path ID is one: path IDs are random)
 */
export async function putAttachment(store: Store, record: AttachmentRecord, quotaBytes: number | null): Promise<boolean> {
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: store.table, Item: itemOf(record), ConditionExpression: "attribute_not_exists(pk)" } },
          {
            Update: {
              TableName: store.table,
              Key: keys.uploadSpace(record.realm_id),
              UpdateExpression: "ADD #bytes :size",
              ...(quotaBytes === null
                ? { ExpressionAttributeNames: { "#bytes": "bytes" }, ExpressionAttributeValues: { ":size": record.size } }
                : {
                    ConditionExpression: "attribute_not_exists(#bytes) OR #bytes <= :room",
                    ExpressionAttributeNames: { "#bytes": "bytes" },
                    ExpressionAttributeValues: { ":size": record.size, ":room": quotaBytes - record.size },
                  }),
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** The total bytes of a realm's uploads (`upload_space_used`): one strongly consistent GetItem. */
export async function uploadSpaceUsed(store: Store, realmId: number): Promise<number> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.uploadSpace(realmId), ConsistentRead: true }),
  );
  return Number(out.Item?.bytes ?? 0);
}

/** The attachment at a path ID of a realm, or undefined. One strongly consistent GetItem. */
export async function attachmentByPath(store: Store, realmId: number, pathId: string): Promise<AttachmentRecord | undefined> {
  const key = keys.attachment(realmId, pathId);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  return out.Item ? recordOf<AttachmentRecord>(out.Item) : undefined;
}

/** The attachments at several path IDs of a realm (absent ones left out): one BatchGet per 100. */
export async function attachmentsByPath(store: Store, realmId: number, pathIds: string[]): Promise<AttachmentRecord[]> {
  const unique = [...new Set(pathIds)];
  if (unique.length === 0) return [];
  const items = await batchGet(store, unique.map((p) => keys.attachment(realmId, p)), true);
  return items.map((item) => recordOf<AttachmentRecord>(item));
}

/**
 * A user's uploads, oldest first (gsi1: eventually consistent), at most
 * {@link OWNER_ATTACHMENTS_LIMIT}. One Query page per 1 MB.
 */
export async function attachmentsOfOwner(store: Store, userId: number): Promise<AttachmentRecord[]> {
  const items = await queryAll(
    store,
    {
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.attachmentByOwner(userId).gsi1pk },
    },
    OWNER_ATTACHMENTS_LIMIT,
  );
  return items.map((item) => recordOf<AttachmentRecord>(item));
}

/**
 * One of a user's uploads by attachment ID (gsi1, then a consistent read of
 * the item itself so a just-deleted one is not returned), or undefined.
 */
export async function ownedAttachmentById(
  store: Store,
  userId: number,
  attachmentId: number,
): Promise<AttachmentRecord | undefined> {
  const index = keys.attachmentByOwner(userId, attachmentId);
  const items = await queryAll(
    store,
    {
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
      ExpressionAttributeValues: { ":pk": index.gsi1pk, ":sk": index.gsi1sk },
    },
    1,
  );
  const found = items[0] ? recordOf<AttachmentRecord>(items[0]) : undefined;
  return found ? attachmentByPath(store, found.realm_id, found.path_id) : undefined;
}

/**
 * Deletes an attachment's item and takes its size off the realm's upload
 * space, in one transaction, if the item still exists (and, with
 * `onlyIfUnclaimed`, no message claims it).
 * @returns false when it was already gone or claimed (nothing written)
 */
export async function deleteAttachmentItem(
  store: Store,
  record: AttachmentRecord,
  onlyIfUnclaimed = false,
): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: store.table,
            Key: keys.attachment(record.realm_id, record.path_id),
            ConditionExpression: onlyIfUnclaimed ? "attribute_exists(pk) AND size(messages) = :zero" : "attribute_exists(pk)",
            ...(onlyIfUnclaimed ? { ExpressionAttributeValues: { ":zero": 0 } } : {}),
          },
        },
        {
          Update: {
            TableName: store.table,
            Key: keys.uploadSpace(record.realm_id),
            UpdateExpression: "ADD #bytes :size",
            ExpressionAttributeNames: { "#bytes": "bytes" },
            ExpressionAttributeValues: { ":size": -record.size },
          },
        },
      ],
    }),
  );
}

/**
 * Records that a message claims an attachment (Zulip's `claim_attachment`):
 * appends the message to the attachment's list, sets the public flags it
 * earns, takes it out of the unclaimed index, and writes the claim item that
 * deleting the message reads. One transaction.
 * @returns the attachment after the claim, or undefined when it no longer exists
 */
export async function claimAttachment(
  store: Store,
  record: AttachmentRecord,
  message: AttachmentMessageRef,
  flags: { realmPublic: boolean; webPublic: boolean },
): Promise<AttachmentRecord | undefined> {
  const claimed = await writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: store.table,
            Key: keys.attachment(record.realm_id, record.path_id),
            // The flags are only ever raised here, so a concurrent claim that raised one is never undone.
            UpdateExpression: [
              "SET messages = list_append(if_not_exists(messages, :empty), :m)",
              ...(flags.realmPublic ? [", is_realm_public = :yes"] : []),
              ...(flags.webPublic ? [", is_web_public = :yes"] : []),
              " REMOVE gsi2pk, gsi2sk",
            ].join(""),
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: {
              ":empty": [],
              ":m": [message],
              ...(flags.realmPublic || flags.webPublic ? { ":yes": true } : {}),
            },
          },
        },
        {
          Put: {
            TableName: store.table,
            Item: {
              ...keys.attachmentClaim(record.realm_id, message.id, record.path_id),
              type: "attachment_claim",
              path_id: record.path_id,
              message_id: message.id,
            },
          },
        },
      ],
    }),
  );
  if (!claimed) return undefined;
  return {
    ...record,
    messages: [...record.messages, message],
    is_realm_public: record.is_realm_public || flags.realmPublic,
    is_web_public: record.is_web_public || flags.webPublic,
  };
}

/**
 * Writes the claim items of an attachment stored already claimed (an
 * imported one, whose `messages` were written with it by
 * {@link putAttachment}): one per message, as {@link claimAttachment}
 * writes them, so deleting such a message releases the file. BatchWriteItem,
 * 25 items a call; rewriting an existing claim is harmless.
 */
export async function putAttachmentClaims(store: Store, record: Pick<AttachmentRecord, "realm_id" | "path_id" | "messages">): Promise<void> {
  await batchWrite(
    store,
    record.messages.map((m) => ({
      ...keys.attachmentClaim(record.realm_id, m.id, record.path_id),
      type: "attachment_claim",
      path_id: record.path_id,
      message_id: m.id,
    })),
  );
}

/**
 * Sets (or, with undefined, removes) an attachment's image metadata — its
 * thumbnails as they are made, or nothing when its bytes turn out not to
 * decode. Conditioned on the attachment existing, so a deleted file is
 * never recreated as a stub.
 * @returns false when the attachment is gone (nothing written)
 */
export async function updateAttachmentImage(
  store: Store,
  record: Pick<AttachmentRecord, "realm_id" | "path_id">,
  image: ImageAttachmentInfo | undefined,
): Promise<boolean> {
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.attachment(record.realm_id, record.path_id),
      UpdateExpression: image === undefined ? "REMOVE #image" : "SET #image = :image",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#image": "image" },
      ...(image === undefined ? {} : { ExpressionAttributeValues: { ":image": image } }),
    }),
  );
}

/** The path IDs a message claims (its claim items): one Query of the realm partition. */
export async function claimedPathIds(store: Store, realmId: number, messageId: number): Promise<string[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realmPartition(realmId).pk, ":prefix": keys.attachmentClaimsOf(messageId) },
    ConsistentRead: true,
  });
  return items.map((item) => String(item.path_id));
}

/**
 * Takes a message off an attachment (its claim item too), conditioned on the
 * list read, so a concurrent claim is never lost (the caller re-reads and
 * retries on false).
 * @returns the attachment after, or undefined when it changed meanwhile or is gone
 */
export async function releaseClaim(
  store: Store,
  record: AttachmentRecord,
  messageId: number,
): Promise<AttachmentRecord | undefined> {
  const remaining = record.messages.filter((m) => m.id !== messageId);
  const unclaimed = remaining.length === 0 ? keys.attachmentUnclaimed(Math.floor(record.create_time / 1000), record.path_id) : undefined;
  const ok = await writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: store.table,
            Key: keys.attachment(record.realm_id, record.path_id),
            UpdateExpression: unclaimed ? "SET messages = :m, gsi2pk = :gpk, gsi2sk = :gsk" : "SET messages = :m",
            ConditionExpression: "attribute_exists(pk) AND size(messages) = :n",
            ExpressionAttributeValues: {
              ":m": remaining,
              ":n": record.messages.length,
              ...(unclaimed ? { ":gpk": unclaimed.gsi2pk, ":gsk": unclaimed.gsi2sk } : {}),
            },
          },
        },
        { Delete: { TableName: store.table, Key: keys.attachmentClaim(record.realm_id, messageId, record.path_id) } },
      ],
    }),
  );
  return ok ? { ...record, messages: remaining } : undefined;
}

/**
 * Attachments no message has claimed, uploaded before `beforeSeconds`
 * (UNIX seconds), oldest first: one Query of the sparse unclaimed index
 * (gsi2, every realm), at most `limit`.
 */
export async function unclaimedAttachmentsBefore(
  store: Store,
  beforeSeconds: number,
  limit: number,
): Promise<AttachmentRecord[]> {
  const items = await queryAll(
    store,
    {
      IndexName: "gsi2",
      KeyConditionExpression: "gsi2pk = :pk AND gsi2sk < :before",
      ExpressionAttributeValues: {
        ":pk": keys.attachmentUnclaimed().gsi2pk,
        ":before": keys.attachmentUnclaimed(beforeSeconds, "").gsi2sk,
      },
    },
    limit,
  );
  return items.map((item) => recordOf<AttachmentRecord>(item));
}

/** Stores a temporary access token for a path ID until `expiresAtSeconds` (UNIX seconds; the TTL removes it later). */
export async function putFileAccessToken(store: Store, token: string, pathId: string, expiresAtSeconds: number): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.fileAccessToken(token), type: "file_access_token", path_id: pathId, expires_at: expiresAtSeconds },
    }),
  );
}

/** The path ID a temporary access token names, with its expiry (UNIX seconds), or undefined. One GetItem. */
export async function fileAccessToken(
  store: Store,
  token: string,
): Promise<{ pathId: string; expiresAt: number } | undefined> {
  const key = keys.fileAccessToken(token);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  if (!out.Item) return undefined;
  return { pathId: String(out.Item.path_id), expiresAt: Number(out.Item.expires_at) };
}
