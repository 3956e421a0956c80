import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { UserGroupRecord } from "./records/user-group.js";

/**
 * User groups entity: one item per user-created group in the realm's
 * partition (`keys.userGroup`) holding its direct members and direct
 * subgroups, one unique-name item per group (`keys.userGroupByName`), and
 * the realm's group-graph version (`keys.userGroupGraph`). Every write of a
 * group item is conditioned on the `version` it read, so concurrent member
 * changes never overwrite each other; subgroup changes are also conditioned
 * on the graph version, so two concurrent changes cannot close a cycle.
 */

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>[number];

/**
 * Every user-created group of a realm, in ID order, and the realm's graph
 * version (0 before the first subgroup change). One strongly consistent
 * Query of the realm partition's `UGROUP#` range (one page per 1 MB) and one
 * GetItem, in parallel.
 */
export async function listRealmUserGroups(
  store: Store,
  realmId: number,
): Promise<{ groups: UserGroupRecord[]; graphVersion: number }> {
  const [items, graph] = await Promise.all([
    queryAll(store, {
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.userGroupPrefix },
      ConsistentRead: true,
    }),
    store.db.send(new GetCommand({ TableName: store.table, Key: keys.userGroupGraph(realmId), ConsistentRead: true })),
  ]);
  return {
    groups: items.map((item) => recordOf<UserGroupRecord>(item)),
    graphVersion: Number(graph.Item?.version ?? 0),
  };
}

/** One change of a {@link writeUserGroups} transaction. */
export interface UserGroupWrites {
  /** New or changed groups: each with the version it was read at (undefined: a new group). Stored with `version + 1`. */
  put?: { record: UserGroupRecord; readVersion: number | undefined }[];
  /** Groups to delete, each with the version it was read at. */
  delete?: { record: UserGroupRecord }[];
  /** Names to claim (the group must be new or renamed); fails when another group holds the name. */
  claimNames?: { name: string; groupId: number }[];
  /** Names to release (a renamed or deleted group's old name). */
  releaseNames?: string[];
  /** The graph version read: when given, the write bumps it and fails if it moved. */
  graphVersion?: number;
}

/**
 * Writes a set of group changes in one transaction (one round trip, at
 * most 100 items), each item conditioned on what was read.
 * @returns false when a condition failed (another write came first, or a
 *   claimed name is taken); nothing was written then
 */
export async function writeUserGroups(store: Store, realmId: number, w: UserGroupWrites): Promise<boolean> {
  const items: TransactItem[] = [];
  for (const { record, readVersion } of w.put ?? []) {
    items.push({
      Put: {
        TableName: store.table,
        Item: { ...keys.userGroup(realmId, record.id), type: "user_group", ...record, version: (readVersion ?? 0) + 1 },
        ...(readVersion === undefined
          ? { ConditionExpression: "attribute_not_exists(pk)" }
          : { ConditionExpression: "version = :v", ExpressionAttributeValues: { ":v": readVersion } }),
      },
    });
  }
  for (const { record } of w.delete ?? []) {
    items.push({
      Delete: {
        TableName: store.table,
        Key: keys.userGroup(realmId, record.id),
        ConditionExpression: "version = :v",
        ExpressionAttributeValues: { ":v": record.version },
      },
    });
  }
  for (const name of w.releaseNames ?? []) {
    items.push({ Delete: { TableName: store.table, Key: keys.userGroupByName(realmId, name) } });
  }
  for (const { name, groupId } of w.claimNames ?? []) {
    items.push({
      Put: {
        TableName: store.table,
        Item: { ...keys.userGroupByName(realmId, name), type: "user_group_name", group_id: groupId },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    });
  }
  if (w.graphVersion !== undefined) {
    items.push({
      Update: {
        TableName: store.table,
        Key: keys.userGroupGraph(realmId),
        UpdateExpression: "SET version = :next",
        ConditionExpression: "attribute_not_exists(pk) OR version = :v",
        ExpressionAttributeValues: { ":v": w.graphVersion, ":next": w.graphVersion + 1 },
      },
    });
  }
  if (items.length === 0) return true;
  return writeIf(store, new TransactWriteCommand({ TransactItems: items }));
}
