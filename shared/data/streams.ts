import { queryAll } from "./query.js";
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { batchGet } from "./batch-get.js";
import { failedConditionIndexes, isConditionFailure, putAllIfAbsent, writeIf } from "./conditions.js";
import { recordOf, setExpression } from "./items.js";
import { keyFits, keys } from "./keys.js";
import type { StreamRecord } from "./records/stream.js";


/** Reads one stream by ID (archived ones included), or undefined. One round trip. */
export async function getStream(store: Store, realmId: number, streamId: number): Promise<StreamRecord | undefined> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.stream(realmId, streamId), ConsistentRead: true }),
  );
  return out.Item ? recordOf<StreamRecord>(out.Item) : undefined;
}

/** Resolves a stream name (case-insensitive) to its ID through the unique-name item, or undefined. */
export async function getStreamIdByName(store: Store, realmId: number, name: string): Promise<number | undefined> {
  const key = keys.streamByName(realmId, name);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  return out.Item ? Number(out.Item.stream_id) : undefined;
}

/** Lists every stream of a realm, archived ones included, in ID order. */
export async function listRealmStreams(store: Store, realmId: number): Promise<StreamRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.streamPrefix },
  });
  return items.map((item) => recordOf<StreamRecord>(item));
}

type TransactItems = NonNullable<TransactWriteCommandInput["TransactItems"]>;

/** The unique-name item of a stream: its lower-cased name mapped to its ID. */
function streamNameItem(realmId: number, name: string, streamId: number): Record<string, unknown> {
  return { ...keys.streamByName(realmId, name), type: "stream_name", realm_id: realmId, stream_id: streamId };
}

/**
 * Reads many streams of one realm by ID (strongly consistent BatchGetItem,
 * one round trip per 100 streams). Unknown IDs are absent from the result.
 */
export async function getStreamsByIds(store: Store, realmId: number, streamIds: number[]): Promise<Map<number, StreamRecord>> {
  const unique = [...new Set(streamIds)];
  const items = await batchGet(store, unique.map((id) => keys.stream(realmId, id)), true);
  const found = new Map<number, StreamRecord>();
  for (const item of items) {
    const stream = recordOf<StreamRecord>(item);
    found.set(stream.stream_id, stream);
  }
  return found;
}

/**
 * Resolves many stream names (case-insensitive) to streams: one BatchGet of
 * the unique-name items, then one of the streams. Archived streams have
 * released their names, so they are never found by name.
 * @returns lower-cased name → stream, for the names that exist
 */
export async function getStreamsByNames(store: Store, realmId: number, names: string[]): Promise<Map<string, StreamRecord>> {
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  if (lowered.length === 0) return new Map();
  const nameItems = await batchGet(store, lowered.map((n) => keys.streamByName(realmId, n)), true);
  const ids = nameItems.map((item) => Number(item.stream_id));
  const streams = await getStreamsByIds(store, realmId, ids);
  const found = new Map<string, StreamRecord>();
  for (const stream of streams.values()) {
    if (!stream.deactivated) found.set(stream.name.toLowerCase(), stream);
  }
  return found;
}

/**
 * Writes a new stream and claims its name in one transaction, so two
 * concurrent creations of the same name cannot both succeed.
 * @returns false when the name is already taken in the realm (nothing written)
 */
export async function putNewStream(store: Store, stream: StreamRecord): Promise<boolean> {
  return putAllIfAbsent(store, [
    streamNameItem(stream.realm_id, stream.name, stream.stream_id),
    { ...keys.stream(stream.realm_id, stream.stream_id), type: "stream", ...stream },
  ]);
}

/** Outcome of {@link updateStreamFields}. */
export type StreamUpdateOutcome = "updated" | "missing" | "name_taken";

/**
 * Sets fields of an active stream; with `rename`, also moves its
 * unique-name claim from the old name to the new one in the same
 * transaction (a rename that only changes letter case keeps the claim).
 * One round trip.
 * @param rename `{from, to}` names; `from` must be the stored name (compare-and-set)
 * @returns `missing` when the stream is gone, archived or was renamed meanwhile;
 *   `name_taken` when another stream holds the new name; nothing is written then
 */
export async function updateStreamFields(
  store: Store,
  realmId: number,
  streamId: number,
  fields: Partial<StreamRecord>,
  rename?: { from: string; to: string },
): Promise<StreamUpdateOutcome> {
  const all: Partial<StreamRecord> = rename ? { ...fields, name: rename.to } : fields;
  const { clauses, names, values } = setExpression(all as Record<string, unknown>);
  if (clauses.length === 0) return "updated";
  const condition = ["attribute_exists(pk)", "#deact = :false"];
  const condNames: Record<string, string> = { "#deact": "deactivated" };
  const condValues: Record<string, unknown> = { ":false": false };
  if (rename) {
    condition.push("#oldname = :oldname");
    condNames["#oldname"] = "name";
    condValues[":oldname"] = rename.from;
  }
  const update = {
    TableName: store.table,
    Key: keys.stream(realmId, streamId),
    UpdateExpression: `SET ${clauses.join(", ")}`,
    ConditionExpression: condition.join(" AND "),
    ExpressionAttributeNames: { ...names, ...condNames },
    ExpressionAttributeValues: { ...values, ...condValues },
  };
  const nameMoves = rename !== undefined && rename.from.toLowerCase() !== rename.to.toLowerCase();
  try {
    if (!nameMoves) {
      await store.db.send(new UpdateCommand(update));
      return "updated";
    }
    const items: TransactItems = [
      { Update: update },
      {
        Put: {
          TableName: store.table,
          Item: streamNameItem(realmId, rename!.to, streamId),
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      {
        Delete: {
          TableName: store.table,
          Key: keys.streamByName(realmId, rename!.from),
          ConditionExpression: "stream_id = :sid",
          ExpressionAttributeValues: { ":sid": streamId },
        },
      },
    ];
    await store.db.send(new TransactWriteCommand({ TransactItems: items }));
    return "updated";
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    if (nameMoves && failedConditionIndexes(err).includes(1) && !failedConditionIndexes(err).includes(0)) {
      return "name_taken";
    }
    return "missing";
  }
}

/**
 * Archives a stream: marks it deactivated under its archived name and
 * releases its unique-name claim, in one transaction (Zulip renames archived
 * streams so that the name can be reused).
 * @param archivedName the name the archived stream is stored under
 * @param fields further fields to set (for example `invite_only`, `is_default`)
 * @returns false when the stream was already archived or renamed meanwhile (nothing written)
 */
export async function archiveStreamReleasingName(
  store: Store,
  stream: Pick<StreamRecord, "realm_id" | "stream_id" | "name">,
  archivedName: string,
  fields: Partial<StreamRecord>,
): Promise<boolean> {
  const { clauses, names, values } = setExpression({ ...fields, deactivated: true, name: archivedName });
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: store.table,
            Key: keys.stream(stream.realm_id, stream.stream_id),
            UpdateExpression: `SET ${clauses.join(", ")}`,
            ConditionExpression: "attribute_exists(pk) AND #deact = :false AND #oldname = :oldname",
            ExpressionAttributeNames: { ...names, "#deact": "deactivated", "#oldname": "name" },
            ExpressionAttributeValues: { ...values, ":false": false, ":oldname": stream.name },
          },
        },
        {
          Delete: {
            TableName: store.table,
            Key: keys.streamByName(stream.realm_id, stream.name),
            ConditionExpression: "stream_id = :sid",
            ExpressionAttributeValues: { ":sid": stream.stream_id },
          },
        },
      ],
    }),
  );
}

/**
 * Records a stream's first message (Zulip's `do_send_messages` sets
 * `first_message_id` when it is still null). One conditional UpdateItem,
 * made only by a send that saw the field null; of two racing first
 * messages the lower ID wins.
 */
export async function claimFirstMessageId(store: Store, realmId: number, streamId: number, messageId: number): Promise<void> {
  await setFirstMessageIdIf(
    store,
    keys.stream(realmId, streamId),
    messageId,
    "attribute_exists(pk) AND (attribute_not_exists(first_message_id) OR first_message_id = :null OR first_message_id > :value)",
    { ":null": null },
  );
}

/** SETs `first_message_id` to `value` under `condition`; false when the condition failed. */
async function setFirstMessageIdIf(
  store: Store,
  key: Record<string, string>,
  value: number | null,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: key,
      UpdateExpression: "SET first_message_id = :value",
      ConditionExpression: condition,
      ExpressionAttributeValues: { ":value": value, ...values },
    }),
  );
}

/**
 * Sets a stream's `first_message_id` to its oldest remaining message (or
 * null) after `first` was deleted (Zulip's `check_update_first_message_id`):
 * one Query of the stream's message index, oldest first, then one
 * conditional UpdateItem that applies only while the field still names the
 * deleted message.
 * @returns the new value, or undefined when nothing changed
 */
export async function replaceFirstMessageId(
  store: Store,
  realmId: number,
  streamId: number,
  deleted: number,
): Promise<number | null | undefined> {
  const index = keys.messageByStream(streamId);
  const out = await store.db.send(
    new QueryCommand({
      TableName: store.table,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk > :after",
      ExpressionAttributeValues: { ":pk": index.gsi1pk, ":after": keys.messageByStream(streamId, deleted).gsi1sk },
      ScanIndexForward: true,
      Limit: 1,
    }),
  );
  const next = out.Items?.[0] ? Number(out.Items[0].id) : null;
  const set = await setFirstMessageIdIf(store, keys.stream(realmId, streamId), next, "first_message_id = :deleted", {
    ":deleted": deleted,
  });
  return set ? next : undefined;
}

/**
 * The stream's incoming-email token, created on first use: one UpdateItem
 * `SET email_token = if_not_exists(email_token, :new)` returning the stored
 * value, so two first requests at once agree on one token.
 * @param fresh a new token (32 hex digits) for a stream that has none
 * @returns the token; undefined when the stream item is missing
 */
export async function ensureStreamEmailToken(
  store: Store,
  realmId: number,
  streamId: number,
  fresh: string,
): Promise<string | undefined> {
  try {
    const out = await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.stream(realmId, streamId),
        UpdateExpression: "SET email_token = if_not_exists(email_token, :new)",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":new": fresh },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return out.Attributes?.email_token as string | undefined;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}
