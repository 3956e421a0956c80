import { describe, expect, it } from "vitest";
import type { Store } from "./client.js";
import { countIdRange, queryIdRange, queryIdRangeAll } from "./id-index.js";
import { messagesByTopic } from "./messages.js";

/**
 * A store that answers every Query as DynamoDB does one whose partition key
 * is over 2,048 bytes (DynamoDB Local does not check that limit on indexes).
 */
function strictStore() {
  const sent: unknown[] = [];
  const db = {
    send: async (command: unknown) => {
      sent.push(command);
      throw Object.assign(new Error("Size of hashkey has exceeded the maximum size limit of 2048 bytes"), {
        name: "ValidationException",
      });
    },
  };
  return { store: { db, table: "t" } as unknown as Store, sent };
}

describe("ID-index reads with a key over DynamoDB's limit", () => {
  const topic = "t".repeat(1_000_000);
  const source = { of: "topic-messages" as const, streamId: 1, topic };

  it("find nothing without sending a Query", async () => {
    // Prepare
    const { store, sent } = strictStore();
    // Act
    const [page, all, count, byTopic] = [
      await queryIdRange(store, source, {}, true, 10),
      await queryIdRangeAll(store, source),
      await countIdRange(store, source),
      await messagesByTopic(store, 1, topic),
    ];
    // Assess
    expect(page).toEqual({ items: [], next: undefined });
    expect(all).toEqual([]);
    expect(count).toBe(0);
    expect(byTopic).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("still query an ordinary topic", async () => {
    const { store, sent } = strictStore();
    await expect(queryIdRangeAll(store, { ...source, topic: "t".repeat(60) })).rejects.toMatchObject({ name: "ValidationException" });
    expect(sent).toHaveLength(1);
  });
});
