import { describe, expect, it } from "vitest";
import { fakeStore as fakeDb } from "../../test/support/fake-store.js";
import { addMessageReaction, hasReactions, messageReactions, noReactions, reactionKey, removeMessageReaction } from "./reactions.js";
import type { ReactionRecord } from "./records/reaction.js";

/** The error DynamoDB answers a failed condition with; `Item` when the write asked for it and the item exists. */
function conditionFailed(item?: Record<string, unknown>): Error {
  return Object.assign(new Error("The conditional request failed"), { name: "ConditionalCheckFailedException", ...(item ? { Item: item } : {}) });
}

function reaction(userId: number, code = "1f419", name = "octopus"): ReactionRecord {
  return {
    emoji_name: name,
    emoji_code: code,
    reaction_type: "unicode_emoji",
    user_id: userId,
    user: { id: userId, email: `u${userId}@x.example`, full_name: `U${userId}`, is_mirror_dummy: false },
  };
}

describe("messageReactions", () => {
  it("lists the reactions in the order they were added, whatever the map's order", () => {
    // Prepare: three reactions added as 9, 5, 7 (place 1, 2, 4: one in between was removed).
    const message = {
      reactions: { "7|unicode_emoji|1f419": reaction(7), "5|unicode_emoji|1f419": reaction(5), "9|unicode_emoji|2764": reaction(9, "2764", "heart") },
      reaction_order: { "7|unicode_emoji|1f419": 4, "5|unicode_emoji|1f419": 2, "9|unicode_emoji|2764": 1 },
    };
    // Act, Assess
    expect(messageReactions(message).map((r) => r.user_id)).toEqual([9, 5, 7]);
    expect(hasReactions(message)).toBe(true);
  });

  it("reads a message without reactions as none", () => {
    expect(messageReactions(noReactions())).toEqual([]);
    expect(messageReactions({})).toEqual([]);
    expect(hasReactions(noReactions())).toBe(false);
  });
});

describe("addMessageReaction", () => {
  it("sends one UpdateItem that sets the reaction's key in both maps and counts it", async () => {
    const { store, sent } = fakeDb();
    expect(await addMessageReaction(store, 12, reaction(5))).toBe("added");
    expect(sent).toEqual([
      {
        name: "UpdateCommand",
        input: {
          TableName: "t",
          Key: { pk: "MSG#12", sk: "MSG" },
          UpdateExpression: "SET reactions.#k = :r, reaction_order.#k = reaction_seq + :one, reaction_seq = reaction_seq + :one",
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(reactions.#k)",
          ExpressionAttributeNames: { "#k": "5|unicode_emoji|1f419" },
          ExpressionAttributeValues: { ":r": reaction(5), ":one": 1 },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ]);
  });

  it("tells a duplicate from a deleted message by the item the failure returns, without a read", async () => {
    const dup = fakeDb(() => conditionFailed({ pk: { S: "MSG#12" } }));
    expect(await addMessageReaction(dup.store, 12, reaction(5))).toBe("duplicate");
    const gone = fakeDb(() => conditionFailed());
    expect(await addMessageReaction(gone.store, 12, reaction(5))).toBe("no-message");
    expect([dup.sent.length, gone.sent.length]).toEqual([1, 1]);
  });

  it("passes other storage errors on", async () => {
    const { store } = fakeDb(() => Object.assign(new Error("slow down"), { name: "ProvisionedThroughputExceededException" }));
    await expect(addMessageReaction(store, 12, reaction(5))).rejects.toThrow("slow down");
  });
});

describe("removeMessageReaction", () => {
  const which = { userId: 5, reactionType: "unicode_emoji", emojiCode: "1f419" };

  it("sends one UpdateItem that removes the key from both maps and returns the reaction removed", async () => {
    // DynamoDB answers UPDATED_OLD with the removed values (DynamoDB Local: the whole maps as they were).
    const old = { reactions: { [reactionKey(which)]: reaction(5), "6|unicode_emoji|1f419": reaction(6) }, reaction_order: { [reactionKey(which)]: 3 } };
    const { store, sent } = fakeDb(() => ({ Attributes: old }));
    expect(await removeMessageReaction(store, 12, which)).toEqual({ removed: reaction(5) });
    expect(sent).toEqual([
      {
        name: "UpdateCommand",
        input: {
          TableName: "t",
          Key: { pk: "MSG#12", sk: "MSG" },
          UpdateExpression: "REMOVE reactions.#k, reaction_order.#k",
          ConditionExpression: "attribute_exists(reactions.#k)",
          ExpressionAttributeNames: { "#k": "5|unicode_emoji|1f419" },
          ReturnValues: "UPDATED_OLD",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ]);
  });

  it("answers absent without a write for a code longer than any stored one", async () => {
    const { store, sent } = fakeDb();
    expect(await removeMessageReaction(store, 12, { ...which, emojiCode: "1f".repeat(200) })).toBe("absent");
    expect(sent).toEqual([]);
  });

  it("answers absent when the message has no such reaction, no-message when it is gone", async () => {
    expect(await removeMessageReaction(fakeDb(() => conditionFailed({ pk: { S: "MSG#12" } })).store, 12, which)).toBe("absent");
    expect(await removeMessageReaction(fakeDb(() => conditionFailed()).store, 12, which)).toBe("no-message");
  });
});
