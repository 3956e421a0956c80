import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { keys } from "./keys.js";
import { recordOf } from "./items.js";
import { queryAll, queryPages } from "./query.js";
import type { AttachmentRecord } from "./records/attachment.js";
import type { RealmExportRecord } from "./records/realm-export.js";
import type { UserMessageRecord } from "./records/user-message.js";

/**
 * A realm's data exports, oldest first: one strongly consistent Query of the
 * realm partition's `EXPORT#` range (a handful: five a week at most).
 */
export async function listRealmExports(store: Store, realmId: number): Promise<RealmExportRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.realmExportPrefix },
    ConsistentRead: true,
  });
  return items.map((item) => recordOf<RealmExportRecord>(item));
}

/** Stores a new export record (its ID already allocated). One PutItem. */
export async function putRealmExport(store: Store, record: RealmExportRecord): Promise<void> {
  await store.db.send(
    new PutCommand({ TableName: store.table, Item: { ...keys.realmExport(record.realm_id, record.id), type: "realm_export", ...record } }),
  );
}

/**
 * Marks an export finished, failed or deleted: SETs the given fields on the
 * condition that the export is in the state `expect` says (pending: neither
 * path nor failure nor deletion; done: a path and no deletion), so a
 * retried job never overwrites a deletion and two deletions do not race.
 * @returns false when the record is missing or not in that state (nothing written)
 */
export async function updateRealmExport(
  store: Store,
  realmId: number,
  exportId: number,
  fields: Partial<Pick<RealmExportRecord, "export_path" | "size" | "deleted_timestamp" | "failed_timestamp">>,
  expect: "pending" | "done",
): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  names["#path"] = "export_path";
  names["#deleted"] = "deleted_timestamp";
  // DynamoDB refuses a name the expressions do not use.
  if (expect === "pending") names["#failed"] = "failed_timestamp";
  const condition =
    expect === "pending"
      ? "attribute_exists(pk) AND attribute_not_exists(#path) AND attribute_not_exists(#deleted) AND attribute_not_exists(#failed)"
      : "attribute_exists(pk) AND attribute_exists(#path) AND attribute_not_exists(#deleted)";
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.realmExport(realmId, exportId),
      UpdateExpression: `SET ${sets.join(", ")}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Every uploaded file of a realm (its `ATTACH#` items), a page at a time:
 * one Query of the realm partition per 1 MB page. The export reads them
 * to write `attachment.json` and copy the files.
 */
export async function* realmAttachmentPages(store: Store, realmId: number): AsyncGenerator<AttachmentRecord[]> {
  for await (const page of queryPages(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.attachmentPrefix },
  })) {
    yield page.map((item) => recordOf<AttachmentRecord>(item));
  }
}

/**
 * A user's UserMessage rows, ascending by message ID, a page at a time
 * (one Query of the user's `UM#` partition per 1 MB page, about 5,000
 * rows). The export reads every user's rows once.
 */
export async function* userMessageRowPages(store: Store, userId: number): AsyncGenerator<UserMessageRecord[]> {
  for await (const page of queryPages(store, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.userMessage(userId, 0).pk },
  })) {
    yield page.map((item) => recordOf<UserMessageRecord>(item));
  }
}


