import { describe, expect, it } from "vitest";
import type { UserRecord } from "../../data/records/user.js";

import { Role } from "../../domain/roles.js";
import { isActiveHumanOwner, lastOwnerGuard } from "./owners.js";

const user = (user_id: number, role: number, extra: Partial<UserRecord> = {}) =>
  ({ user_id, role, is_active: true, is_bot: false, ...extra }) as UserRecord;

describe("lastOwnerGuard", () => {
  it("needs no guard for someone who is not an active human owner", () => {
    const users = [user(1, Role.OWNER), user(2, Role.MEMBER), user(3, Role.OWNER, { is_active: false })];
    expect(lastOwnerGuard(users, users[1]!)).toEqual({});
    expect(lastOwnerGuard(users, users[2]!)).toEqual({});
    expect(lastOwnerGuard(users, user(4, Role.OWNER, { is_bot: true }))).toEqual({});
  });

  it("refuses (null) the only active human owner, ignoring deactivated and bot owners", () => {
    const users = [user(1, Role.OWNER), user(2, Role.OWNER, { is_active: false }), user(3, Role.OWNER, { is_bot: true })];
    expect(lastOwnerGuard(users, users[0]!)).toBeNull();
  });

  it("guards on another active human owner", () => {
    const users = [user(1, Role.OWNER), user(2, Role.ADMINISTRATOR), user(3, Role.OWNER)];
    const guard = lastOwnerGuard(users, users[0]!);
    expect(guard?.check?.userId).toBe(3);
    expect(guard?.check?.condition.values).toEqual({ ":c_true": true, ":c_role": Role.OWNER, ":c_false": false });
  });
});

describe("isActiveHumanOwner", () => {
  it("is true only for active, human owners", () => {
    expect(isActiveHumanOwner(user(1, Role.OWNER))).toBe(true);
    expect(isActiveHumanOwner(user(1, Role.ADMINISTRATOR))).toBe(false);
    expect(isActiveHumanOwner(user(1, Role.OWNER, { is_bot: true }))).toBe(false);
    expect(isActiveHumanOwner(user(1, Role.OWNER, { is_active: false }))).toBe(false);
  });
});
