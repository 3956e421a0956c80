import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { keys } from "./keys.js";
import { messageById } from "./messages.js";
import { withWriteRetries } from "./retry.js";
import type { MessageRecord } from "./records/message.js";
import type { ReactionRecord } from "./records/reaction.js";

/**
 * Emoji reactions, stored on their message item (docs/data-model.md
 * "Messages"): the `reactions` list in wire shape, plus a string set
 * `reaction_keys` of `<user>|<type>|<code>`. The set makes concurrent
 * reactions safe: adding appends to the list on the condition that the key
 * is absent; removing deletes one list element by index on the condition
 * that the element there is that reaction.
 */

/** Which reaction of whom: a user's reaction is identified by its type and code (its name may differ). */
export interface ReactionIdentity {
  userId: number;
  reactionType: string;
  emojiCode: string;
}

/** The `reaction_keys` element of a reaction. */
function reactionKey({ userId, reactionType, emojiCode }: ReactionIdentity): string {
  return `${userId}|${reactionType}|${emojiCode}`;
}

/** Whether a stored reaction is the one named. */
function isReaction(r: ReactionRecord, which: ReactionIdentity): boolean {
  return r.user_id === which.userId && r.emoji_code === which.emojiCode && r.reaction_type === which.reactionType;
}

/** A message's reactions as stored (the list the reaction writes below keep). */
export function messageReactions(message: Pick<MessageRecord, "reactions">): ReactionRecord[] {
  return message.reactions ?? [];
}

/**
 * Appends a reaction to a message: one UpdateItem that appends to
 * `reactions` and adds the reaction's key to `reaction_keys`, on the
 * condition that the message exists and the key is absent. When the
 * condition fails, one strongly consistent GetItem tells why.
 * @returns `added`; `duplicate` when the user already has this reaction (a
 *   concurrent identical one won); `no-message` when the message is gone
 */
export async function addMessageReaction(
  store: Store,
  messageId: number,
  reaction: ReactionRecord,
): Promise<"added" | "duplicate" | "no-message"> {
  const key = reactionKey({ userId: reaction.user_id, reactionType: reaction.reaction_type, emojiCode: reaction.emoji_code });
  const added = await writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.message(messageId),
      UpdateExpression: "SET reactions = list_append(if_not_exists(reactions, :empty), :r) ADD reaction_keys :k",
      ConditionExpression: "attribute_exists(pk) AND NOT contains(reaction_keys, :key)",
      ExpressionAttributeValues: { ":empty": [], ":r": [reaction], ":k": new Set([key]), ":key": key },
    }),
  );
  if (added) return "added";
  return (await messageById(store, messageId)) ? "duplicate" : "no-message";
}

/** Attempts of {@link removeMessageReaction} (the first with the message as the caller read it). */
const REMOVE_ATTEMPTS = 5;

/**
 * Removes a user's reaction from a message: one UpdateItem that removes the
 * list element at the reaction's index and its key from `reaction_keys`, on
 * the condition that the element at that index still is this reaction. When
 * a concurrent change shifted the list, the message is read again (GetItem,
 * strongly consistent) and the removal retried, {@link REMOVE_ATTEMPTS}
 * attempts in all.
 * @param message the message as the caller read it (its `reactions` give the first index)
 * @returns the reaction removed and the message as last read before the
 *   removal; `absent` when the message (as last read) has no such reaction;
 *   `no-message` when the message is gone
 * @throws Error when every attempt lost a race (not expected in practice)
 */
export async function removeMessageReaction(
  store: Store,
  message: MessageRecord,
  which: ReactionIdentity,
): Promise<{ removed: ReactionRecord; message: MessageRecord } | "absent" | "no-message"> {
  let current = message;
  let attempts = 0;
  return withWriteRetries(
    "removeMessageReaction",
    async () => {
      if (attempts++ > 0) {
        const fresh = await messageById(store, message.id);
        if (!fresh) return "no-message";
        current = fresh;
      }
      const reactions = messageReactions(current);
      const index = reactions.findIndex((r) => isReaction(r, which));
      if (index < 0) return "absent";
      const removed = await writeIf(
        store,
        new UpdateCommand({
          TableName: store.table,
          Key: keys.message(message.id),
          UpdateExpression: `REMOVE reactions[${index}] DELETE reaction_keys :k`,
          ConditionExpression: `reactions[${index}].user_id = :u AND reactions[${index}].emoji_code = :c AND reactions[${index}].reaction_type = :t`,
          ExpressionAttributeValues: {
            ":k": new Set([reactionKey(which)]),
            ":u": which.userId,
            ":c": which.emojiCode,
            ":t": which.reactionType,
          },
        }),
      );
      return removed ? { removed: reactions[index]!, message: current } : undefined;
    },
    { maxAttempts: REMOVE_ATTEMPTS },
  );
}
