import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { isConditionFailure } from "./conditions.js";
import { dynamoItemBytes } from "./item-size.js";
import { keys } from "./keys.js";
import type { SubmessageRecord } from "./records/message.js";

/**
 * Submessages (the state of poll and to-do widgets,
 * https://zulip.com/api/send-submessage), stored on their message item in
 * the `submessages` list, so a page of messages carries them with no read
 * per message (docs/data-model.md "Submessages"). Appending is one
 * UpdateItem (`list_append`), applied in place by DynamoDB: any number of
 * users voting on one poll at once each succeed with one write, no
 * read-modify-write, no retry.
 *
 * The list shares the message item's 400 KB with the content, its
 * rendering, reactions and edit history, so it is bounded:
 * {@link MAX_SUBMESSAGES} entries and {@link MAX_SUBMESSAGE_BYTES} bytes in
 * all (the running total is the item's `submessage_bytes`).
 */

/** Most submessages one message may have (a vote or a task each; a poll of 100 voters changing their minds a few times stays far below). */
export const MAX_SUBMESSAGES = 2_000;

/** Most bytes (DynamoDB's measure) a message's submessages may take in all: half the item limit. */
export const MAX_SUBMESSAGE_BYTES = 200_000;

/** The stored size of one submessage as an element of the list (its map's bytes plus the element's own). */
export function submessageBytes(submessage: SubmessageRecord): number {
  return dynamoItemBytes(submessage as unknown as Record<string, unknown>) + 4;
}

/**
 * Appends a submessage to its message: one UpdateItem
 * `SET submessages = list_append(submessages, [s]), submessage_bytes = submessage_bytes + n`,
 * on the condition that the message exists and stays within
 * {@link MAX_SUBMESSAGES} / {@link MAX_SUBMESSAGE_BYTES}. Items without
 * the attributes count as empty.
 * @returns `added`; `no-message` when the message is gone; `full` when the
 *   submessage would go over a bound (nothing is written)
 */
export async function appendSubmessage(store: Store, submessage: SubmessageRecord): Promise<"added" | "no-message" | "full"> {
  const size = submessageBytes(submessage);
  if (size > MAX_SUBMESSAGE_BYTES) return "full";
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.message(submessage.message_id),
        UpdateExpression: "SET submessages = list_append(if_not_exists(submessages, :none), :new), submessage_bytes = if_not_exists(submessage_bytes, :zero) + :size",
        ConditionExpression:
          "attribute_exists(pk) AND (attribute_not_exists(submessages) OR size(submessages) < :maxCount) AND (attribute_not_exists(submessage_bytes) OR submessage_bytes <= :room)",
        ExpressionAttributeValues: {
          ":none": [],
          ":new": [submessage],
          ":zero": 0,
          ":size": size,
          ":maxCount": MAX_SUBMESSAGES,
          ":room": MAX_SUBMESSAGE_BYTES - size,
        },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return "added";
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // The failure carries the item as it was (no extra cost): none means the message is gone.
    return (err as { Item?: unknown }).Item === undefined ? "no-message" : "full";
  }
}
