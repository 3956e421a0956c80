import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { batchGet } from "./batch-get.js";
import { isConditionFailure, putAllIfAbsent, writeIf } from "./conditions.js";
import { queryAll } from "./query.js";
import { recordOf, setExpression } from "./items.js";
import { EMAIL_SK_PREFIX, keyFits, keys } from "./keys.js";
import type { RealmRecord } from "./records/realm.js";
import type { UserRecord } from "./records/user.js";

/**
 * Delivery emails of the system bots this server creates (a subset of
 * Zulip's `CROSS_REALM_BOT_EMAILS`), lower-cased.
 */
export const SYSTEM_BOT_EMAILS: ReadonlySet<string> = new Set(["notification-bot@zulip.com", "emailgateway@zulip.com"]);

/**
 * Whether a user record is a system bot (Zulip's `is_cross_realm_bot_email`):
 * marked at creation, or, for records created before the mark existed, a bot
 * with a system-bot email. System bots are listed in `POST /register`'s
 * `cross_realm_bots`, never among the realm's users, and never count as a
 * member, owner or administrator of the realm.
 */
export function isSystemBot(user: Pick<UserRecord, "is_bot" | "delivery_email" | "is_system_bot">): boolean {
  if (user.is_system_bot === true) return true;
  return user.is_bot && SYSTEM_BOT_EMAILS.has(user.delivery_email.toLowerCase());
}


/**
 * Reads one user by ID, or undefined. One GetItem.
 * @param options.consistent strongly consistent (twice the read units) @default true
 */
export async function userById(
  store: Store,
  realmId: number,
  userId: number,
  options: { consistent?: boolean } = {},
): Promise<UserRecord | undefined> {
  const out = await store.db.send(
    new GetCommand({
      TableName: store.table,
      Key: keys.user(realmId, userId),
      ...(options.consistent === false ? {} : { ConsistentRead: true }),
    }),
  );
  return out.Item ? recordOf<UserRecord>(out.Item) : undefined;
}

/**
 * Reads one user by delivery email (case-insensitive), or undefined: the
 * unique-email item, then the user ({@link getUserIdByEmail},
 * {@link userById}); two strongly consistent GetItems (one when the
 * email is unknown).
 */
export async function userByEmail(store: Store, realmId: number, email: string): Promise<UserRecord | undefined> {
  const userId = await getUserIdByEmail(store, realmId, email);
  return userId === undefined ? undefined : userById(store, realmId, userId);
}

/**
 * Reads a user and their realm together: one strongly consistent
 * BatchGetItem of both items (authentication's second round trip).
 * @returns each record, or undefined when its item does not exist
 */
export async function userAndRealm(
  store: Store,
  realmId: number,
  userId: number,
): Promise<{ user?: UserRecord; realm?: RealmRecord }> {
  const found: { user?: UserRecord; realm?: RealmRecord } = {};
  for (const item of await batchGet(store, [keys.user(realmId, userId), keys.realm(realmId)], true)) {
    if (item.type === "user") found.user = recordOf<UserRecord>(item);
    else if (item.type === "realm") found.realm = recordOf<RealmRecord>(item);
  }
  return found;
}

/**
 * Reads many users of one realm by ID (BatchGetItem, one round trip per
 * 100 users, in parallel). Unknown IDs are absent from the result.
 * @param consistent strongly consistent reads (twice the read units) @default true
 */
export async function getUsersByIds(
  store: Store,
  realmId: number,
  userIds: number[],
  consistent = true,
): Promise<Map<number, UserRecord>> {
  const unique = [...new Set(userIds)];
  const items = await batchGet(store, unique.map((id) => keys.user(realmId, id)), consistent);
  const found = new Map<number, UserRecord>();
  for (const item of items) {
    const user = recordOf<UserRecord>(item);
    found.set(user.user_id, user);
  }
  return found;
}

/**
 * Lists every user of a realm, active or not, in user-ID order (one Query
 * page per 1 MB).
 * @param options.consistent strongly consistent read (twice the read cost);
 *   for actions that decide on what they read, such as "is there another owner"
 */
export async function listRealmUsers(
  store: Store,
  realmId: number,
  options: { consistent?: boolean } = {},
): Promise<UserRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.userPrefix },
    ConsistentRead: options.consistent ?? false,
  });
  return items.map((item) => recordOf<UserRecord>(item));
}

/**
 * Lists the realm's own users and bots, active or not, in user-ID order:
 * {@link listRealmUsers} without the system bots ({@link isSystemBot}),
 * which Zulip keeps in a separate realm. Same cost (one Query page per 1 MB).
 * Use this for anything that lists, counts or notifies the realm's users.
 */
export async function listRealmMembers(
  store: Store,
  realmId: number,
  options: { consistent?: boolean } = {},
): Promise<UserRecord[]> {
  return (await listRealmUsers(store, realmId, options)).filter((u) => !isSystemBot(u));
}

/** Resolves a delivery email (case-insensitive) to a user ID within a realm, or undefined. */
export async function getUserIdByEmail(store: Store, realmId: number, email: string): Promise<number | undefined> {
  const key = keys.userByEmail(realmId, email);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  return out.Item ? Number(out.Item.user_id) : undefined;
}

/**
 * Resolves delivery emails (case-insensitive) to user IDs within a realm:
 * one strongly consistent BatchGet of the unique-email items per 100 emails.
 * @returns lower-cased email → user ID; unknown emails are absent
 */
export async function userIdsByEmails(store: Store, realmId: number, emails: string[]): Promise<Map<string, number>> {
  const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
  const found = new Map<string, number>();
  if (unique.length === 0) return found;
  const items = await batchGet(store, unique.map((e) => keys.userByEmail(realmId, e)), true);
  for (const item of items) found.set(String(item.sk).slice(EMAIL_SK_PREFIX.length), Number(item.user_id));
  return found;
}

/**
 * Resolves the SHA-256 hex of an API key to its owner through the key's
 * lookup item (one eventually consistent GetItem), or undefined.
 */
export async function apiKeyOwner(
  store: Store,
  apiKeyHash: string,
): Promise<{ realm_id: number; user_id: number } | undefined> {
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.apiKey(apiKeyHash) }));
  return out.Item ? { realm_id: Number(out.Item.realm_id), user_id: Number(out.Item.user_id) } : undefined;
}

/**
 * Writes a new user, claims its email within the realm and registers its API
 * key, all in one transaction.
 * @returns false when the email is already taken in the realm (nothing written)
 */
export async function putNewUser(store: Store, user: UserRecord, apiKeyHash: string): Promise<boolean> {
  return putAllIfAbsent(store, [
    { ...keys.userByEmail(user.realm_id, user.delivery_email), type: "user_email", user_id: user.user_id },
    { ...keys.user(user.realm_id, user.user_id), type: "user", ...user },
    { ...keys.apiKey(apiKeyHash), type: "api_key", realm_id: user.realm_id, user_id: user.user_id },
  ]);
}

/**
 * Sets top-level fields of a user record. One round trip.
 * @param condition optional extra condition expression on the current item
 *   (with its own names/values), for compare-and-set updates
 * @returns false when the user is missing or the condition failed (nothing written)
 */
export async function updateUserFields(
  store: Store,
  realmId: number,
  userId: number,
  fields: Partial<UserRecord>,
  condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
): Promise<boolean> {
  const { clauses, names, values } = setExpression(fields);
  if (clauses.length === 0) return true;
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.user(realmId, userId),
      UpdateExpression: `SET ${clauses.join(", ")}`,
      ConditionExpression: condition ? `attribute_exists(pk) AND (${condition.expression})` : "attribute_exists(pk)",
      ExpressionAttributeNames: { ...names, ...condition?.names },
      ExpressionAttributeValues: { ...values, ...condition?.values },
    }),
  );
}

/**
 * Replaces a user's password hash only if it still is `oldHash`: one
 * conditional UpdateItem, so that a password changed meanwhile (a
 * concurrent `PATCH /settings`) wins over a login's upgrade of the old hash.
 * @returns false when the stored hash changed or the user is missing (nothing written)
 */
export async function replacePasswordHash(
  store: Store,
  realmId: number,
  userId: number,
  oldHash: string,
  newHash: string,
): Promise<boolean> {
  return updateUserFields(store, realmId, userId, { password_hash: newHash }, {
    expression: "#ph = :old",
    names: { "#ph": "password_hash" },
    values: { ":old": oldHash },
  });
}

/**
 * Replaces a user's API key: the old lookup item goes, the new one comes and
 * the user record changes, in one transaction.
 */
export async function replaceApiKey(
  store: Store,
  user: UserRecord,
  oldHash: string,
  newKey: string,
  newHash: string,
): Promise<void> {
  await store.db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: store.table, Key: keys.apiKey(oldHash) } },
        {
          Put: {
            TableName: store.table,
            Item: { ...keys.apiKey(newHash), type: "api_key", realm_id: user.realm_id, user_id: user.user_id },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
        {
          Update: {
            TableName: store.table,
            Key: keys.user(user.realm_id, user.user_id),
            UpdateExpression: "SET api_key = :k",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":k": newKey },
          },
        },
      ],
    }),
  );
}

/** An active user or bot of a realm as stream-event audiences see it: see {@link listActiveRealmUsers}. */
export interface ActiveRealmUser {
  user_id: number;
  role: number;
  is_bot: boolean;
}

/**
 * The realm's active users and bots, system bots left out (see
 * {@link isSystemBot}), with only their ID, role and bot flag, in user-ID
 * order: who may hear of a stream (Zulip's `can_access_stream_user_ids`).
 * One Query of the realm's user items (one page per 1 MB), projected to the
 * fields the filter and the audience need. The projection only trims what
 * crosses the network: DynamoDB charges read units by the size of the items
 * read, so this costs as much as {@link listRealmUsers}.
 */
export async function listActiveRealmUsers(store: Store, realmId: number): Promise<ActiveRealmUser[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.userPrefix },
    ProjectionExpression: "user_id, #role, is_active, is_bot, is_system_bot, delivery_email",
    ExpressionAttributeNames: { "#role": "role" },
  });
  return items
    .map((item) => recordOf<UserRecord>(item))
    .filter((user) => user.is_active === true && !isSystemBot(user))
    .map((user) => ({ user_id: Number(user.user_id), role: Number(user.role), is_bot: user.is_bot === true }));
}

/**
 * Records that a user has seen an onboarding step: one UpdateItem adding the
 * name to the user item's `onboarding_steps_seen` string set (idempotent,
 * and concurrent marks of different steps all land).
 * @returns the names seen so far, this one included; undefined when the user item is missing
 */
export async function addOnboardingStepSeen(
  store: Store,
  realmId: number,
  userId: number,
  step: string,
): Promise<Set<string> | undefined> {
  try {
    const out = await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.user(realmId, userId),
        UpdateExpression: "ADD onboarding_steps_seen :step",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":step": new Set([step]) },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return new Set((out.Attributes?.onboarding_steps_seen as Set<string> | undefined) ?? [step]);
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

/**
 * Claims a bot's owner-notification slot (Zulip's `last_reminder` rate
 * limit): sets `last_reminder` to `nowSeconds` only when it is absent or at
 * least `waitSeconds` old, in one conditional UpdateItem, so that concurrent
 * webhook requests notify the owner once.
 * @returns true when this caller got the slot
 */
export async function claimBotReminder(
  store: Store,
  realmId: number,
  botId: number,
  nowSeconds: number,
  waitSeconds: number,
): Promise<boolean> {
  return updateUserFields(store, realmId, botId, { last_reminder: nowSeconds }, {
    expression: "attribute_not_exists(#lr) OR #lr <= :cutoff",
    names: { "#lr": "last_reminder" },
    values: { ":cutoff": nowSeconds - waitSeconds },
  });
}
