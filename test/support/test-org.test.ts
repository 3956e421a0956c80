import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { describe, expect, it } from "vitest";
import { copyTableItems } from "./test-org.js";

/** A client answering Scan from `pages` and BatchWriteItem with `unprocessed` (one answer per call). */
function fakeClient(pages: { items: number[]; more: boolean }[], unprocessed: number[][] = []) {
  const sent: { name: string; input: any }[] = [];
  const client = {
    send: async (cmd: { constructor: { name: string }; input: any }) => {
      sent.push({ name: cmd.constructor.name, input: cmd.input });
      if (cmd.constructor.name === "ScanCommand") {
        const page = pages.shift()!;
        return {
          Items: page.items.map((n) => ({ pk: { S: `p${n}` } })),
          LastEvaluatedKey: page.more ? { pk: { S: `p${page.items.at(-1)}` } } : undefined,
        };
      }
      const left = unprocessed.shift() ?? [];
      return { UnprocessedItems: left.length ? { to: left.map((n) => ({ PutRequest: { Item: { pk: { S: `p${n}` } } } })) } : {} };
    },
  } as unknown as DynamoDBClient;
  return { client, sent };
}

const written = (sent: { name: string; input: any }[]) =>
  sent
    .filter((c) => c.name === "BatchWriteItemCommand")
    .map((c) => c.input.RequestItems.to.map((r: any) => r.PutRequest.Item.pk.S));

describe("copyTableItems", () => {
  it("follows the scan's pages and writes at most 25 items per batch", async () => {
    const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
    const { client, sent } = fakeClient([
      { items: range(0, 30), more: true },
      { items: range(30, 3), more: false },
    ]);
    await copyTableItems(client, "from", "to");
    const scans = sent.filter((c) => c.name === "ScanCommand").map((c) => c.input);
    expect(scans).toEqual([
      { TableName: "from", ConsistentRead: true, ExclusiveStartKey: undefined },
      { TableName: "from", ConsistentRead: true, ExclusiveStartKey: { pk: { S: "p29" } } },
    ]);
    expect(written(sent).map((batch) => batch.length)).toEqual([25, 5, 3]);
    expect(written(sent).flat()).toEqual(range(0, 33).map((n) => `p${n}`));
  });

  it("writes the unprocessed items again until none are left", async () => {
    const { client, sent } = fakeClient([{ items: [1, 2, 3], more: false }], [[2, 3], [3]]);
    await copyTableItems(client, "from", "to");
    expect(written(sent)).toEqual([["p1", "p2", "p3"], ["p2", "p3"], ["p3"]]);
  });

  it("gives up when items stay unprocessed", async () => {
    const { client } = fakeClient([{ items: [1], more: false }], Array.from({ length: 10 }, () => [1]));
    await expect(copyTableItems(client, "from", "to")).rejects.toThrow("copying from to to: 1 items stayed unprocessed");
  });
});
