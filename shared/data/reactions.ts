import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { isConditionFailure } from "./conditions.js";
import { keys } from "./keys.js";
import type { MessageReactions, ReactionRecord } from "./records/reaction.js";

/**
 * Emoji reactions, stored on their message item (docs/data-model.md
 * "Reactions"), so a page of messages carries its reactions without another
 * read:
 * - `reactions`: a map from a reaction's key ({@link reactionKey}: Zulip's
 *   unique user, emoji type and code of one message) to the reaction in
 *   wire shape;
 * - `reaction_order`: a map from the same key to the reaction's place;
 * - `reaction_seq`: how many reactions the message was ever given, which
 *   numbers the next one.
 *
 * Adding SETs one key of each map and increments the counter; removing
 * REMOVEs one key of each map. DynamoDB applies each such update in place,
 * conditioned only on that key being absent (add) or present (remove), so
 * concurrent changes to one message's reactions never conflict: no
 * read-modify-write, no retries, one UpdateItem per change.
 */

/** Which reaction of whom: a user's reaction is identified by its type and code (its name may differ). */
export interface ReactionIdentity {
  userId: number;
  reactionType: string;
  emojiCode: string;
}

/** The key of a reaction in a message item's `reactions` and `reaction_order` maps: `<user_id>|<reaction_type>|<emoji_code>`. */
export function reactionKey({ userId, reactionType, emojiCode }: ReactionIdentity): string {
  return `${userId}|${reactionType}|${emojiCode}`;
}

/** The reaction attributes of a new message: none yet. */
export function noReactions(): MessageReactions {
  return { reactions: {}, reaction_order: {}, reaction_seq: 0 };
}

/**
 * A message's reactions in the order they were added (Zulip's order:
 * by reaction ID), in wire shape. No read.
 * @param message the message item's `reactions` and `reaction_order` (missing attributes read as none)
 */
export function messageReactions(message: Partial<Pick<MessageReactions, "reactions" | "reaction_order">>): ReactionRecord[] {
  const stored = message.reactions ?? {};
  const order = message.reaction_order ?? {};
  return Object.entries(stored)
    .map(([key, reaction]) => ({ place: order[key] ?? Number.MAX_SAFE_INTEGER, key, reaction }))
    .sort((a, b) => a.place - b.place || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.reaction);
}

/**
 * The reaction attributes of a message written with its reactions (an
 * imported message): the reactions in the order given, numbered from 1 as
 * {@link addMessageReaction} numbers them; a repeated key keeps its first. No write.
 */
export function reactionsInOrder(list: readonly ReactionRecord[]): MessageReactions {
  const out = noReactions();
  for (const reaction of list) {
    const key = reactionKey({ userId: reaction.user_id, reactionType: reaction.reaction_type, emojiCode: reaction.emoji_code });
    if (key in out.reactions) continue;
    out.reactions[key] = reaction;
    out.reaction_order[key] = ++out.reaction_seq;
  }
  return out;
}

/** Whether a message has any reaction (the `has:reaction` narrow). No read. */
export function hasReactions(message: Partial<Pick<MessageReactions, "reactions">>): boolean {
  return Object.keys(message.reactions ?? {}).length > 0;
}

/**
 * When a conditional write sent with `ReturnValuesOnConditionCheckFailure:
 * ALL_OLD` failed its condition: whether the item exists (DynamoDB returns
 * it with the failure at no extra cost, so no read is needed to tell a
 * duplicate from a deleted message).
 * @returns the outcome of the write
 * @throws any other storage error
 */
async function sendConditioned(store: Store, command: UpdateCommand): Promise<{ written: true; old: Record<string, unknown> } | { written: false; exists: boolean }> {
  try {
    const out = await store.db.send(command);
    return { written: true, old: out.Attributes ?? {} };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    return { written: false, exists: (err as { Item?: unknown }).Item !== undefined };
  }
}

/**
 * Adds a reaction to a message: one UpdateItem that SETs the reaction's
 * key in `reactions` and `reaction_order` and counts it in `reaction_seq`,
 * on the condition that the message exists and the key is absent.
 * @returns `added`; `duplicate` when the user already has this reaction (a
 *   concurrent identical one won); `no-message` when the message is gone
 */
export async function addMessageReaction(
  store: Store,
  messageId: number,
  reaction: ReactionRecord,
): Promise<"added" | "duplicate" | "no-message"> {
  const key = reactionKey({ userId: reaction.user_id, reactionType: reaction.reaction_type, emojiCode: reaction.emoji_code });
  const out = await sendConditioned(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.message(messageId),
      UpdateExpression: "SET reactions.#k = :r, reaction_order.#k = reaction_seq + :one, reaction_seq = reaction_seq + :one",
      ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(reactions.#k)",
      ExpressionAttributeNames: { "#k": key },
      ExpressionAttributeValues: { ":r": reaction, ":one": 1 },
      ReturnValuesOnConditionCheckFailure: "ALL_OLD",
    }),
  );
  if (out.written) return "added";
  return out.exists ? "duplicate" : "no-message";
}

/**
 * Longest key {@link removeMessageReaction} sends. Stored keys are far
 * shorter (a user ID, a type name and a code the add checked: Unicode
 * sequences of a few code points, custom emoji IDs); the limit keeps an
 * arbitrary `emoji_code` or `reaction_type` of a removal, which only has to
 * miss, from reaching DynamoDB as an attribute name it would refuse.
 */
const MAX_REACTION_KEY_BYTES = 255;

/**
 * Removes a user's reaction from a message: one UpdateItem that REMOVEs
 * the reaction's key from `reactions` and `reaction_order`, on the
 * condition that the key is present. The message's other reactions and
 * `reaction_seq` stay as they are. No write for a key longer than any
 * stored one ({@link MAX_REACTION_KEY_BYTES}).
 * @returns the reaction removed, as it was stored (its name is the one
 *   the event carries); `absent` when the message has no such reaction;
 *   `no-message` when the message is gone
 */
export async function removeMessageReaction(
  store: Store,
  messageId: number,
  which: ReactionIdentity,
): Promise<{ removed: ReactionRecord } | "absent" | "no-message"> {
  const key = reactionKey(which);
  if (Buffer.byteLength(key) > MAX_REACTION_KEY_BYTES) return "absent";
  const out = await sendConditioned(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.message(messageId),
      UpdateExpression: "REMOVE reactions.#k, reaction_order.#k",
      ConditionExpression: "attribute_exists(reactions.#k)",
      ExpressionAttributeNames: { "#k": key },
      // The old values of what changed: the removed reaction (on AWS just that key; DynamoDB Local returns the whole map).
      ReturnValues: "UPDATED_OLD",
      ReturnValuesOnConditionCheckFailure: "ALL_OLD",
    }),
  );
  if (!out.written) return out.exists ? "absent" : "no-message";
  const removed = (out.old.reactions as Record<string, ReactionRecord> | undefined)?.[key];
  if (!removed) throw new Error(`removeMessageReaction: no old value of ${key} returned`);
  return { removed };
}
