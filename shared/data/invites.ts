import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchWrite } from "./batch-write.js";
import type { Store } from "./client.js";
import { isConditionFailure, writeIf } from "./conditions.js";
import { confirmationItem } from "./confirmations.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";
import { queryAll } from "./query.js";
import type { ConfirmationRecord } from "./records/confirmation.js";
import type { InviteRecord } from "./records/invite.js";
import { TTL_ATTRIBUTE } from "./table.js";

/**
 * The invitations entity (docs/data-model.md, "Invitations"): every email
 * invitation and reusable link of a realm is one item of the realm's
 * `INVITES#<realm_id>` partition, written in one transaction with its
 * link's confirmation item (`CONFIRM#<sha256 of key>`). One Query lists a
 * realm's invitations; each is named by its kind and ID.
 *
 * The record's `expires_at` (the link's expiry) is stored as
 * `link_expires_at`: `expires_at` is the table's TTL attribute, set a week
 * after the link expires or is revoked, so that expired and revoked
 * invitations leave the partition by themselves.
 */

/** How long an expired or revoked invitation's item stays (then TTL deletes it): 7 days, in seconds. */
const KEEP_SECONDS = 7 * 24 * 3600;

/** Transaction items per TransactWriteItems call (DynamoDB allows 100). */
const TRANSACT_LIMIT = 100;

function inviteItem(invite: InviteRecord): Record<string, unknown> {
  const { expires_at: linkExpiresAt, ...rest } = invite;
  const ttl = invite.revoked_at !== undefined ? invite.revoked_at + KEEP_SECONDS : linkExpiresAt === null ? undefined : linkExpiresAt + KEEP_SECONDS;
  return {
    ...keys.invite(invite.realm_id, invite.is_multiuse, invite.id),
    type: "invite",
    ...rest,
    link_expires_at: linkExpiresAt,
    ...(ttl === undefined ? {} : { [TTL_ATTRIBUTE]: ttl }),
  };
}

function inviteOf(item: Record<string, unknown>): InviteRecord {
  const { link_expires_at: linkExpiresAt, ...rest } = recordOf<Omit<InviteRecord, "expires_at"> & { link_expires_at?: number | null }>(item);
  return { ...rest, expires_at: linkExpiresAt ?? null };
}

/**
 * Stores new invitations, each with its link's confirmation, in
 * transactions of up to 50 pairs (an invitation never exists without its
 * link). One TransactWriteItems per 50 invitations.
 * @param entries each invitation with its link's confirmation record
 */
export async function putInvitesWithLinks(
  store: Store,
  entries: { invite: InviteRecord; confirmation: ConfirmationRecord }[],
): Promise<void> {
  const per = TRANSACT_LIMIT / 2;
  for (let i = 0; i < entries.length; i += per) {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: entries.slice(i, i + per).flatMap(({ invite, confirmation }) => [
          { Put: { TableName: store.table, Item: inviteItem(invite), ConditionExpression: "attribute_not_exists(pk)" } },
          {
            Put: {
              TableName: store.table,
              Item: confirmationItem(invite.key_hash, confirmation),
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ]),
      }),
    );
  }
}

/**
 * One invitation by kind and ID: one strongly consistent GetItem.
 * @returns the invitation (revoked ones included), or undefined
 */
export async function getInvite(store: Store, realmId: number, multiuse: boolean, inviteId: number): Promise<InviteRecord | undefined> {
  if (!Number.isSafeInteger(inviteId) || inviteId < 0) return undefined;
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.invite(realmId, multiuse, inviteId), ConsistentRead: true }),
  );
  return out.Item ? inviteOf(out.Item) : undefined;
}

/**
 * Every invitation item of a realm (revoked and expired ones the TTL has not
 * removed yet included; callers filter): one strongly consistent Query per
 * 1 MB page of the realm's invitations partition.
 */
export async function listRealmInvites(store: Store, realmId: number): Promise<InviteRecord[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: "pk = :pk",
    FilterExpression: "#type = :invite",
    ExpressionAttributeNames: { "#type": "type" },
    ExpressionAttributeValues: { ":pk": keys.realmInvites(realmId).pk, ":invite": "invite" },
    ConsistentRead: true,
  });
  return items.map(inviteOf);
}

/**
 * Revokes an invitation: marks it revoked (its TTL a week later) and
 * deletes its link's confirmation, in one transaction, only if it was not
 * revoked before.
 * @param nowSeconds UNIX seconds
 * @returns false when it was revoked already or is gone (nothing written)
 */
export async function revokeInvite(store: Store, invite: InviteRecord, nowSeconds: number): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: store.table,
            Key: keys.invite(invite.realm_id, invite.is_multiuse, invite.id),
            UpdateExpression: "SET revoked_at = :now, #ttl = :ttl",
            ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(revoked_at)",
            ExpressionAttributeNames: { "#ttl": TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ":now": nowSeconds, ":ttl": nowSeconds + KEEP_SECONDS },
          },
        },
        { Delete: { TableName: store.table, Key: keys.confirmation(invite.key_hash) } },
      ],
    }),
  );
}

/**
 * Gives an email invitation a new link (a resent invitation mails a new
 * key): the invite's `key_hash` replaced, only if it still holds the old
 * one and is not revoked; the old confirmation deleted and the new one put;
 * one transaction.
 * @returns false when the invitation changed meanwhile (revoked, used or resent)
 */
export async function replaceInviteLink(
  store: Store,
  invite: InviteRecord,
  newKeyHash: string,
  confirmation: ConfirmationRecord,
): Promise<boolean> {
  return writeIf(
    store,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: store.table,
            Key: keys.invite(invite.realm_id, invite.is_multiuse, invite.id),
            UpdateExpression: "SET key_hash = :new",
            ConditionExpression: "key_hash = :old AND attribute_not_exists(revoked_at)",
            ExpressionAttributeValues: { ":new": newKeyHash, ":old": invite.key_hash },
          },
        },
        { Delete: { TableName: store.table, Key: keys.confirmation(invite.key_hash) } },
        { Put: { TableName: store.table, Item: confirmationItem(newKeyHash, confirmation), ConditionExpression: "attribute_not_exists(pk)" } },
      ],
    }),
  );
}

/**
 * Deletes email invitations that are done with (used, or made pointless by
 * a sign-up with the same address) and their links, except the link
 * `keepLinkHash` names (the used one, kept so that following it again says
 * "used"). BatchWriteItem, 25 deletes per round trip.
 */
export async function deleteInvites(store: Store, invites: InviteRecord[], keepLinkHash?: string): Promise<void> {
  const deletes = invites.flatMap((invite) => [
    keys.invite(invite.realm_id, invite.is_multiuse, invite.id),
    ...(invite.key_hash === keepLinkHash ? [] : [keys.confirmation(invite.key_hash)]),
  ]);
  if (deletes.length > 0) await batchWrite(store, [], deletes);
}

/**
 * Counts `count` invitation emails against a realm's daily limit: one
 * conditional UpdateItem on the day's counter (its TTL two days later),
 * adding only if the total stays within `max`.
 * @param day the UTC day number (UNIX seconds / 86,400, floored)
 * @returns false when the day's total would exceed `max` (nothing counted)
 */
export async function countInvitesSent(store: Store, realmId: number, day: number, count: number, max: number): Promise<boolean> {
  if (count > max) return false;
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.invitesSent(realmId, day),
        UpdateExpression: "ADD #n :count SET #ttl = :ttl, #type = :type",
        ConditionExpression: "attribute_not_exists(#n) OR #n <= :room",
        ExpressionAttributeNames: { "#n": "sent", "#ttl": TTL_ATTRIBUTE, "#type": "type" },
        ExpressionAttributeValues: { ":count": count, ":room": max - count, ":ttl": (day + 2) * 86_400, ":type": "invites_sent" },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
