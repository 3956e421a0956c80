import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { createDocumentClient } from "./client.js";

/** A client whose transport fails with TransactionConflictException `failures` times, then answers. */
function clientFailing(failures: number) {
  const db = createDocumentClient({ AWS_REGION: "us-east-1", DYNAMODB_ENDPOINT: "http://127.0.0.1:9" });
  const state = { sends: 0 };
  db.middlewareStack.add(
    () => async () => {
      state.sends++;
      if (state.sends <= failures) throw Object.assign(new Error("in a transaction"), { name: "TransactionConflictException" });
      return { output: { $metadata: {}, Item: { ok: { BOOL: true } } }, response: {} };
    },
    { step: "build", name: "fakeTransport" },
  );
  return { db, state };
}

describe("createDocumentClient", () => {
  it("retries a write that met a transaction in flight", async () => {
    const { db, state } = clientFailing(2);
    const out = await db.send(new GetCommand({ TableName: "t", Key: { pk: "a" } }));
    expect(out.Item).toBeDefined();
    expect(state.sends).toBe(3);
  });

  it("gives up after six tries with the conflict itself", async () => {
    const { db, state } = clientFailing(100);
    await expect(db.send(new GetCommand({ TableName: "t", Key: { pk: "a" } }))).rejects.toMatchObject({
      name: "TransactionConflictException",
    });
    expect(state.sends).toBe(6);
  });
});
