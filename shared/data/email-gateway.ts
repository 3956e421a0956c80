import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { isConditionFailure } from "./conditions.js";
import { keys } from "./keys.js";
import { TTL_ATTRIBUTE } from "./table.js";

/**
 * The email gateway's items (docs/data-model.md, "Incoming email"):
 *
 * - `EMAILTOKEN#<token>` / `EMAILTOKEN`: which stream a stream's
 *   incoming-email token belongs to (`{realm_id, stream_id}`), so that a
 *   received email's address resolves with one GetItem. The token itself
 *   lives on the stream item (`email_token`); this item is its index.
 * - `INEMAIL#<sha256 of the object key>` / `INEMAIL`: the marker that makes
 *   one received email (one object in the files bucket) post at most once,
 *   however often its job is delivered. Expires by TTL.
 */

/** Where a token points. */
export interface StreamEmailTokenRecord {
  realm_id: number;
  stream_id: number;
}

/**
 * Writes (or rewrites, with the same content) a token's lookup item: one
 * PutItem. Idempotent, so the address endpoint may call it for a token
 * handed out before the lookup existed.
 */
export async function putStreamEmailToken(store: Store, token: string, record: StreamEmailTokenRecord): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.streamEmailToken(token), type: "stream_email_token", realm_id: record.realm_id, stream_id: record.stream_id },
    }),
  );
}

/** The stream a token names, or undefined. One GetItem (eventually consistent: tokens never move). */
export async function streamByEmailToken(store: Store, token: string): Promise<StreamEmailTokenRecord | undefined> {
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.streamEmailToken(token) }));
  if (!out.Item) return undefined;
  return { realm_id: Number(out.Item.realm_id), stream_id: Number(out.Item.stream_id) };
}

/** How a received email ended: posted, refused (a bad email: never retried), or its object was gone. */
export type IncomingEmailOutcome = "posted" | "refused" | "missing";

/** How long a received email's marker is kept: 30 days, in seconds (far beyond SQS's retention of a redelivered job). */
const MARKER_SECONDS = 30 * 24 * 3600;

/**
 * Claims a received email for processing: one PutItem, conditional on no
 * marker for the key, so of two deliveries of one job only one proceeds.
 * @param keyHash the SHA-256 hex of the object key
 * @param nowSeconds UNIX seconds
 * @returns true when this call claimed it; false when it was claimed before (posted, refused or in progress)
 */
export async function claimIncomingEmail(store: Store, keyHash: string, nowSeconds: number): Promise<boolean> {
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.table,
        Item: {
          ...keys.incomingEmail(keyHash),
          type: "incoming_email",
          status: "processing",
          claimed_at: nowSeconds,
          [TTL_ATTRIBUTE]: nowSeconds + MARKER_SECONDS,
        },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * Records how a claimed email ended: one UpdateItem.
 * @param messageIds the messages posted (empty unless `posted`)
 * @param reason why it was refused, for an operator reading the item
 */
export async function finishIncomingEmail(
  store: Store,
  keyHash: string,
  outcome: IncomingEmailOutcome,
  messageIds: readonly number[],
  reason?: string,
): Promise<void> {
  await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.incomingEmail(keyHash),
      UpdateExpression: "SET #status = :status, message_ids = :ids" + (reason === undefined ? "" : ", reason = :reason"),
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":status": outcome, ":ids": [...messageIds], ...(reason === undefined ? {} : { ":reason": reason.slice(0, 500) }) },
    }),
  );
}

/** Drops a claim whose processing failed for a reason worth retrying (the job is then delivered again). One DeleteItem. */
export async function releaseIncomingEmail(store: Store, keyHash: string): Promise<void> {
  await store.db.send(new DeleteCommand({ TableName: store.table, Key: keys.incomingEmail(keyHash) }));
}

/** A received email's marker as stored (tests and operators). */
export async function incomingEmailMarker(
  store: Store,
  keyHash: string,
): Promise<{ status: string; message_ids: number[]; reason?: string } | undefined> {
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.incomingEmail(keyHash), ConsistentRead: true }));
  if (!out.Item) return undefined;
  return {
    status: String(out.Item.status),
    message_ids: ((out.Item.message_ids as number[] | undefined) ?? []).map(Number),
    ...(out.Item.reason === undefined ? {} : { reason: String(out.Item.reason) }),
  };
}
