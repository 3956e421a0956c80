import { describe, expect, it } from "vitest";
import { assignableRoles, canManageUser } from "./users-logic.js";

describe("assignableRoles", () => {
  it("offers Owner only to owners", () => {
    expect(assignableRoles(100).map(([r]) => r)).toEqual([100, 200, 300, 400, 600]);
    expect(assignableRoles(200).map(([r]) => r)).toEqual([200, 300, 400, 600]);
    expect(assignableRoles(200)[0]).toEqual([200, "Administrator"]);
  });
});

describe("canManageUser", () => {
  it("lets administrators manage everyone but owners, and owners everyone", () => {
    expect(canManageUser(200, 400)).toBe(true);
    expect(canManageUser(200, 200)).toBe(true);
    expect(canManageUser(200, 100)).toBe(false);
    expect(canManageUser(100, 100)).toBe(true);
    expect(canManageUser(300, 400)).toBe(false);
    expect(canManageUser(400, 600)).toBe(false);
  });
});

import { policyAllows } from "./users-logic.js";

describe("policyAllows", () => {
  const now = Date.parse("2026-01-11T00:00:00Z");
  const member = { role: 400, date_joined: "2026-01-01T00:00:00Z" };
  it("reads Zulip's common policy values", () => {
    expect(policyAllows(1, member, 0, now)).toBe(true);
    expect(policyAllows(2, member, 0, now)).toBe(false);
    expect(policyAllows(2, { role: 200 }, 0, now)).toBe(true);
    expect(policyAllows(4, member, 0, now)).toBe(false);
    expect(policyAllows(4, { role: 300 }, 0, now)).toBe(true);
    expect(policyAllows(1, { role: 600 }, 0, now)).toBe(false);
  });
  it("counts the waiting period for full members", () => {
    expect(policyAllows(3, member, 10, now)).toBe(true);
    expect(policyAllows(3, member, 11, now)).toBe(false);
    expect(policyAllows(3, { role: 300 }, 100, now)).toBe(true);
  });
});
