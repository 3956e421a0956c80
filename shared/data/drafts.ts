import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { batchWrite } from "./batch-write.js";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { DraftRecord } from "./records/draft.js";

/**
 * The drafts entity: every draft of a user is one item in the user's own
 * partition (`DRAFTS#<user_id>`, sort key the padded draft ID), so one
 * Query lists them and a key names each one (docs/data-model.md, "Drafts").
 */

/** The item of a draft; the draft's own `type` is stored as `draft_type` (`type` names the item type). */
function draftItem(draft: DraftRecord): Record<string, unknown> {
  const { type: draftType, ...rest } = draft;
  return { ...keys.draft(draft.user_id, draft.id), type: "draft", ...rest, draft_type: draftType };
}

function draftOf(item: Record<string, unknown>): DraftRecord {
  const { draft_type: draftType, ...rest } = recordOf<Omit<DraftRecord, "type"> & { draft_type: DraftRecord["type"] }>(item);
  return { ...rest, type: draftType };
}

/**
 * Stores new drafts (IDs already allocated): BatchWriteItem, 25 items per
 * round trip.
 */
export async function putNewDrafts(store: Store, drafts: DraftRecord[]): Promise<void> {
  await batchWrite(store, drafts.map(draftItem));
}

/**
 * Every draft of a user in draft-ID order: one strongly consistent Query
 * per 1 MB page (a user's own writes are seen at once).
 * @param limit stop after this many drafts @default all
 */
export async function listUserDrafts(store: Store, userId: number, limit?: number): Promise<DraftRecord[]> {
  const items = await queryAll(
    store,
    {
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.userDrafts(userId).pk },
      ConsistentRead: true,
    },
    limit,
  );
  return items.map(draftOf);
}

/**
 * Replaces an existing draft of its user (one conditional PutItem).
 * @returns false when the user has no draft with that ID (nothing written)
 */
export async function replaceDraft(store: Store, draft: DraftRecord): Promise<boolean> {
  return writeIf(
    store,
    new PutCommand({ TableName: store.table, Item: draftItem(draft), ConditionExpression: "attribute_exists(pk)" }),
  );
}

/**
 * Deletes one draft of a user (one conditional DeleteItem).
 * @returns false when the user has no draft with that ID
 */
export async function removeDraft(store: Store, userId: number, draftId: number): Promise<boolean> {
  return writeIf(
    store,
    new DeleteCommand({ TableName: store.table, Key: keys.draft(userId, draftId), ConditionExpression: "attribute_exists(pk)" }),
  );
}

/**
 * Deletes every draft of a user: one keys-only Query per page, then
 * BatchWriteItem deletes, 25 per round trip. Nothing is read or written
 * when the user has no drafts beyond the one Query.
 */
export async function removeAllUserDrafts(store: Store, userId: number): Promise<void> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.userDrafts(userId).pk },
    ProjectionExpression: "pk, sk",
  });
  if (items.length === 0) return;
  await batchWrite(store, [], items.map((item) => ({ pk: item.pk, sk: item.sk })));
}
