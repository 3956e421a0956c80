import { describe, expect, it } from "vitest";
import { fakeStore as fakeDb } from "../../test/support/fake-store.js";
import { userConditions, writeUsers } from "./user-writes.js";

function cancelled(code: string): Error {
  return Object.assign(new Error("cancelled"), {
    name: "TransactionCanceledException",
    CancellationReasons: [{ Code: "None" }, { Code: code }],
  });
}

describe("writeUsers", () => {
  it("sends one UpdateItem for a single unguarded write, settings set and removed by path", async () => {
    const { store, sent } = fakeDb();
    const ok = await writeUsers(store, 3, [
      { userId: 9, fields: { full_name: "N" }, setSettings: { color_scheme: 2 }, removeSettings: ["enter_sends"] },
    ]);
    expect(ok).toBe(true);
    expect(sent).toEqual([
      {
        name: "UpdateCommand",
        input: {
          TableName: "t",
          Key: { pk: "REALM#3", sk: "USER#0000000000000009" },
          UpdateExpression: "SET #f0 = :f0, #settings.#s0 = :s0 REMOVE #settings.#r0",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#f0": "full_name", "#settings": "settings", "#s0": "color_scheme", "#r0": "enter_sends" },
          ExpressionAttributeValues: { ":f0": "N", ":s0": 2 },
        },
      },
    ]);
  });

  it("sends one transaction with ConditionChecks for guarded writes", async () => {
    const { store, sent } = fakeDb();
    await writeUsers(
      store,
      3,
      [{ userId: 9, fields: { role: 200 }, condition: userConditions.activeWithRole(100) }],
      [{ userId: 4, condition: userConditions.activeHumanOwner(100) }],
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.name).toBe("TransactWriteCommand");
    const [update, check] = sent[0]!.input.TransactItems;
    expect(update.Update.ConditionExpression).toBe("attribute_exists(pk) AND (#c_active = :c_true AND #c_role = :c_role)");
    expect(update.Update.ExpressionAttributeValues).toEqual({ ":f0": 200, ":c_true": true, ":c_role": 100 });
    expect(check.ConditionCheck).toEqual({
      TableName: "t",
      Key: { pk: "REALM#3", sk: "USER#0000000000000004" },
      ConditionExpression: "attribute_exists(pk) AND (#c_active = :c_true AND #c_role = :c_role AND #c_bot = :c_false)",
      ExpressionAttributeNames: { "#c_active": "is_active", "#c_role": "role", "#c_bot": "is_bot" },
      ExpressionAttributeValues: { ":c_true": true, ":c_role": 100, ":c_false": false },
    });
  });

  it("reports a failed condition or a transaction conflict as false, and rethrows anything else", async () => {
    const args = [[{ userId: 1, fields: { is_active: false } }], [{ userId: 2, condition: userConditions.active() }]] as const;
    for (const code of ["ConditionalCheckFailed", "TransactionConflict"]) {
      const { store } = fakeDb(() => cancelled(code));
      expect(await writeUsers(store, 1, [...args[0]], [...args[1]])).toBe(false);
    }
    const { store } = fakeDb(() => cancelled("ThrottlingError"));
    await expect(writeUsers(store, 1, [...args[0]], [...args[1]])).rejects.toThrow("cancelled");
  });

  it("sends nothing when there is nothing to write", async () => {
    const { store, sent } = fakeDb();
    expect(await writeUsers(store, 1, [{ userId: 1, fields: {} }])).toBe(true);
    expect(sent).toEqual([]);
  });
});
