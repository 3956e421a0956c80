import { describe, expect, it } from "vitest";
import type { UserRecord } from "../data/records/user.js";

import { Role } from "../domain/roles.js";
import { checkUserAccess, userIdFromFakeEmail } from "./user.js";

const user = (role: number, extra: Partial<UserRecord> = {}) =>
  ({ user_id: 5, role, is_active: true, is_bot: false, bot_owner_id: null, ...extra }) as UserRecord;
const all = { allowDeactivated: true, allowBots: true, forAdmin: false };

describe("userIdFromFakeEmail", () => {
  const config = { ROOT_DOMAIN: "chat.example.com:443" };
  it("reads the ID of the realm's fake address, without the port, any case", () => {
    expect(userIdFromFakeEmail("user12@chat.example.com", { string_id: "" }, config)).toBe(12);
    expect(userIdFromFakeEmail("USER12@acme.chat.example.com", { string_id: "acme" }, config)).toBe(12);
  });
  it("ignores real addresses and other realms' fake ones", () => {
    expect(userIdFromFakeEmail("user12@example.com", { string_id: "" }, config)).toBeUndefined();
    expect(userIdFromFakeEmail("user12@other.chat.example.com", { string_id: "acme" }, config)).toBeUndefined();
    expect(userIdFromFakeEmail("userx@chat.example.com", { string_id: "" }, config)).toBeUndefined();
  });
});

describe("checkUserAccess", () => {
  it("checks bots, then deactivation, then permission, as Zulip's access_user_common", () => {
    const member = user(Role.MEMBER);
    const deactivatedBot = user(Role.MEMBER, { is_bot: true, is_active: false });
    expect(() => checkUserAccess(deactivatedBot, member, { ...all, allowBots: false, forAdmin: true })).toThrow("No such user");
    expect(() => checkUserAccess(deactivatedBot, member, { ...all, allowDeactivated: false, forAdmin: true })).toThrow(
      "User is deactivated",
    );
    expect(() => checkUserAccess(deactivatedBot, member, { ...all, forAdmin: true })).toThrow("Insufficient permission");
  });

  it("lets administrators and owners administer, and anyone read", () => {
    const target = user(Role.MEMBER);
    expect(checkUserAccess(target, user(Role.ADMINISTRATOR), { ...all, forAdmin: true })).toBe(target);
    expect(checkUserAccess(target, user(Role.OWNER), { ...all, forAdmin: true })).toBe(target);
    expect(checkUserAccess(target, user(Role.GUEST), all)).toBe(target);
    expect(() => checkUserAccess(target, user(Role.MODERATOR), { ...all, forAdmin: true })).toThrow("Insufficient permission");
  });
});
