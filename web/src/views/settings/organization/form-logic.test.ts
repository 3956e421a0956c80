import { describe, expect, it } from "vitest";
import { canChange, changedNames, changedParams, parseInput, readOnlyReason, savedValues, type SettingField } from "./form-logic.js";

const fields: SettingField[] = [
  { name: "allow_message_editing", label: "Allow message editing", kind: "bool" },
  { name: "message_content_edit_limit_seconds", label: "Time limit for editing messages", kind: "time-limit" },
  { name: "edit_topic_policy", label: "Who can move messages to another topic", kind: "select", options: [[1, "Members"], [2, "Admins"]] },
  { name: "can_delete_any_message_group", label: "Who can delete any message", kind: "group", groups: ["role:administrators"] },
  { name: "waiting_period_threshold", label: "Waiting period", kind: "number", ownerOnly: true },
  { name: "description", label: "Description", kind: "text" },
];

const realm = {
  realm_allow_message_editing: true,
  realm_message_content_edit_limit_seconds: 600,
  realm_edit_topic_policy: 1,
  realm_can_delete_any_message_group: 11,
  realm_waiting_period_threshold: 0,
  realm_description: "Hello",
};

describe("savedValues", () => {
  it("reads register's realm_ fields by setting name; absent ones are null", () => {
    expect(savedValues(fields, realm, "realm_")).toEqual({
      allow_message_editing: true,
      message_content_edit_limit_seconds: 600,
      edit_topic_policy: 1,
      can_delete_any_message_group: 11,
      waiting_period_threshold: 0,
      description: "Hello",
    });
    expect(savedValues(fields.slice(0, 1), {}, "realm_")).toEqual({ allow_message_editing: null });
  });
});

describe("changedParams", () => {
  const saved = savedValues(fields, realm, "realm_");

  it("is empty when the draft equals the saved values", () => {
    expect(changedParams(fields, saved, { ...saved })).toEqual({});
    expect(changedNames(fields, saved, { ...saved })).toEqual([]);
  });

  it("sends only the changed settings, each encoded as the API takes it", () => {
    const draft = { ...saved, message_content_edit_limit_seconds: null, can_delete_any_message_group: 12, edit_topic_policy: 2 };
    expect(changedNames(fields, saved, draft)).toEqual(["message_content_edit_limit_seconds", "edit_topic_policy", "can_delete_any_message_group"]);
    expect(changedParams(fields, saved, draft)).toEqual({
      message_content_edit_limit_seconds: "unlimited",
      edit_topic_policy: 2,
      can_delete_any_message_group: { new: 12, old: 11 },
    });
  });

  it("sends a limit back from unlimited as seconds, and flags and text as they are", () => {
    const s = { ...saved, message_content_edit_limit_seconds: null };
    expect(changedParams(fields, s, { ...s, message_content_edit_limit_seconds: 3600, allow_message_editing: false, description: "" })).toEqual({
      message_content_edit_limit_seconds: 3600,
      allow_message_editing: false,
      description: "",
    });
  });
});

describe("parseInput", () => {
  it("reads form values back into setting values", () => {
    expect(parseInput(fields[0]!, true)).toBe(true);
    expect(parseInput(fields[1]!, "unlimited")).toBeNull();
    expect(parseInput(fields[1]!, "120")).toBe(120);
    expect(parseInput(fields[2]!, "2")).toBe(2);
    expect(parseInput(fields[5]!, "x")).toBe("x");
  });
});

describe("canChange", () => {
  const state = (role: number) => ({ me: { user_id: 1, email: "", full_name: "" }, users: new Map([[1, { user_id: 1, role } as never]]) });
  it("lets administrators change settings and only owners the owner-only ones", () => {
    expect(canChange(state(400))).toBe(false);
    expect(canChange(state(300))).toBe(false);
    expect(canChange(state(200))).toBe(true);
    expect(canChange(state(200), { ownerOnly: true })).toBe(false);
    expect(canChange(state(100), { ownerOnly: true })).toBe(true);
    expect(readOnlyReason({ ownerOnly: true })).toBe("Only organization owners can change this");
    expect(readOnlyReason()).toBe("Only organization administrators can change this");
  });
});
