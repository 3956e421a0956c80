import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/**
 * A data-layer store whose document client records the commands it is sent
 * and answers each with `reply()` (thrown when it is an Error): for unit
 * tests that check the exact DynamoDB requests a data function makes.
 */
export function fakeStore(reply: () => unknown = () => ({})) {
  const sent: { name: string; input: any }[] = [];
  const db = {
    send: async (cmd: { constructor: { name: string }; input: unknown }) => {
      sent.push({ name: cmd.constructor.name, input: cmd.input });
      const r = reply();
      if (r instanceof Error) throw r;
      return r;
    },
  } as unknown as DynamoDBDocumentClient;
  return { store: { db, table: "t" }, sent };
}
