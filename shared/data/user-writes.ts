import { TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { isConditionFailure } from "./conditions.js";
import { setExpression } from "./items.js";
import { keys } from "./keys.js";
import type { UserRecord } from "./records/user.js";

/*
 * Compare-and-set writes of user items: the role, active-state and
 * settings changes of the user actions, each guarded by conditions on what
 * the action read (see `withWriteRetries` in `retry.ts`).
 */


/**
 * A condition expression on one user item. Placeholders must start with
 * `#c`/`:c` so they never clash with the ones an update builds.
 */
export interface UserCondition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** Named conditions on a user item, for compare-and-set writes (ElectroDB-style access patterns). */
export const userConditions = {
  /** The user is active and still has `role` (a role change or deactivation raced with us otherwise). */
  activeWithRole: (role: number): UserCondition => ({
    expression: "#c_active = :c_true AND #c_role = :c_role",
    names: { "#c_active": "is_active", "#c_role": "role" },
    values: { ":c_true": true, ":c_role": role },
  }),
  /** The user still has the role and active state that were read (compare-and-set). */
  unchanged: (user: Pick<UserRecord, "role" | "is_active">): UserCondition => ({
    expression: "#c_active = :c_active AND #c_role = :c_role",
    names: { "#c_active": "is_active", "#c_role": "role" },
    values: { ":c_active": user.is_active, ":c_role": user.role },
  }),
  /** The user is active and its avatar is still at `version` (an avatar change raced with us otherwise). */
  activeWithAvatarVersion: (version: number): UserCondition => ({
    expression: "#c_active = :c_true AND #c_avatar_version = :c_avatar_version",
    names: { "#c_active": "is_active", "#c_avatar_version": "avatar_version" },
    values: { ":c_true": true, ":c_avatar_version": version },
  }),
  /** The user is active. */
  active: (): UserCondition => ({
    expression: "#c_active = :c_true",
    names: { "#c_active": "is_active" },
    values: { ":c_true": true },
  }),
  /** The user is deactivated. */
  inactive: (): UserCondition => ({
    expression: "#c_active = :c_false",
    names: { "#c_active": "is_active" },
    values: { ":c_false": false },
  }),
  /** The user is an active human organization owner (Zulip's `get_human_owner_users`). */
  activeHumanOwner: (ownerRole: number): UserCondition => ({
    expression: "#c_active = :c_true AND #c_role = :c_role AND #c_bot = :c_false",
    names: { "#c_active": "is_active", "#c_role": "role", "#c_bot": "is_bot" },
    values: { ":c_true": true, ":c_role": ownerRole, ":c_false": false },
  }),
} as const;

/** One user item to change: top-level fields, personal settings to set or remove, and a condition. */
export interface UserWrite {
  userId: number;
  /** Top-level fields to set. */
  fields?: Partial<UserRecord>;
  /** Personal settings to set inside the `settings` map. */
  setSettings?: Record<string, unknown>;
  /** Personal settings to remove from the `settings` map (back to the default). */
  removeSettings?: string[];
  /** Must hold on the current item, else nothing is written. */
  condition?: UserCondition;
}

/** DynamoDB's limit of items in one TransactWriteItems. */
export const MAX_TRANSACTION_ITEMS = 100;

function updateParts(write: UserWrite): {
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  const { clauses, names, values } = setExpression(write.fields ?? {});
  const setClauses = [...clauses];
  Object.entries(write.setSettings ?? {}).forEach(([k, v], i) => {
    names["#settings"] = "settings";
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    setClauses.push(`#settings.#s${i} = :s${i}`);
  });
  const removeClauses = (write.removeSettings ?? []).map((k, i) => {
    names["#settings"] = "settings";
    names[`#r${i}`] = k;
    return `#settings.#r${i}`;
  });
  const parts = [];
  if (setClauses.length) parts.push(`SET ${setClauses.join(", ")}`);
  if (removeClauses.length) parts.push(`REMOVE ${removeClauses.join(", ")}`);
  const cond = write.condition;
  const allValues = { ...values, ...cond?.values };
  return {
    UpdateExpression: parts.join(" "),
    ConditionExpression: cond ? `attribute_exists(pk) AND (${cond.expression})` : "attribute_exists(pk)",
    ExpressionAttributeNames: { ...names, ...cond?.names },
    ...(Object.keys(allValues).length ? { ExpressionAttributeValues: allValues } : {}),
  };
}

function isConditionOrConflict(err: unknown): boolean {
  if (isConditionFailure(err)) return true;
  if (!(err instanceof Error) || err.name !== "TransactionCanceledException") return false;
  const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.some((r) => r.Code === "TransactionConflict");
}

/**
 * Changes several user items of one realm atomically, optionally guarded by
 * conditions on other user items that are checked but not written (for
 * example "another owner still exists" while demoting an owner).
 *
 * One UpdateItem when there is a single write and no check (half the write
 * cost of a transaction), else one TransactWriteItems.
 *
 * @param checks user ID → condition that must hold on that (unwritten) user item
 * @returns false when a condition failed or the transaction collided with a
 *   concurrent one (nothing written); the caller re-reads and decides again
 * @throws Error when more than {@link MAX_TRANSACTION_ITEMS} items are involved (the caller chunks)
 */
export async function writeUsers(
  store: Store,
  realmId: number,
  writes: UserWrite[],
  checks: { userId: number; condition: UserCondition }[] = [],
): Promise<boolean> {
  const effective = writes.filter(
    (w) => Object.keys(w.fields ?? {}).length || Object.keys(w.setSettings ?? {}).length || w.removeSettings?.length,
  );
  if (effective.length === 0) return true;
  if (effective.length + checks.length > MAX_TRANSACTION_ITEMS) {
    throw new Error(`writeUsers: ${effective.length + checks.length} items exceed one transaction`);
  }
  try {
    if (effective.length === 1 && checks.length === 0) {
      const w = effective[0]!;
      await store.db.send(new UpdateCommand({ TableName: store.table, Key: keys.user(realmId, w.userId), ...updateParts(w) }));
      return true;
    }
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          ...effective.map((w) => ({
            Update: { TableName: store.table, Key: keys.user(realmId, w.userId), ...updateParts(w) },
          })),
          ...checks.map((c) => ({
            ConditionCheck: {
              TableName: store.table,
              Key: keys.user(realmId, c.userId),
              ConditionExpression: `attribute_exists(pk) AND (${c.condition.expression})`,
              ExpressionAttributeNames: c.condition.names,
              ExpressionAttributeValues: c.condition.values,
            },
          })),
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isConditionOrConflict(err)) return false;
    throw err;
  }
}
