import { describe, expect, it } from "vitest";
import type { WireUser } from "./types.js";
import { canDeleteMessage, canEditContent, canViewEditHistory, editHistoryVisibility, isFullMember, type PermissionState } from "./message-permissions.js";
import { ROLE } from "./roles.js";
import { ME, streamMessage } from "./test-fixtures.js";

const NOW = 1_700_000_000;

function user(user_id: number, role: number, over: Partial<WireUser> = {}): WireUser {
  return { user_id, role, full_name: `User ${user_id}`, email: `u${user_id}@example.com`, is_bot: false, date_joined: "2020-01-01T00:00:00+00:00", ...over } as WireUser;
}

/** The reader (`ME`) with `role`, and Iago (11, a member); the realm's settings as register names them. */
function state(role: number, settings: Record<string, unknown> = {}, me: Partial<WireUser> = {}): PermissionState {
  return {
    me: { user_id: ME, email: "me@example.com", full_name: "Me" },
    users: new Map([
      [ME, user(ME, role, me)],
      [11, user(11, ROLE.member)],
      [12, user(12, ROLE.member, { is_bot: true, bot_owner_id: ME })],
    ]),
    realmSettings: {
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_delete_own_message_policy: 2,
      realm_message_content_delete_limit_seconds: 600,
      realm_allow_edit_history: true,
      realm_waiting_period_threshold: 0,
      ...settings,
    },
  };
}

const mine = (age: number) => streamMessage(1, { sender_id: ME, timestamp: NOW - age });
const theirs = (age: number) => streamMessage(2, { sender_id: 11, timestamp: NOW - age });

describe("canEditContent", () => {
  it("offers editing of one's own message within the time limit", () => {
    expect(canEditContent(state(ROLE.member), mine(599), NOW)).toBe(true);
    expect(canEditContent(state(ROLE.member), mine(600), NOW)).toBe(false);
  });

  it("never offers someone else's message, even to an owner", () => {
    expect(canEditContent(state(ROLE.owner), theirs(1), NOW)).toBe(false);
  });

  it("has no time limit when the limit is null", () => {
    expect(canEditContent(state(ROLE.member, { realm_message_content_edit_limit_seconds: null }), mine(10 * 86_400), NOW)).toBe(true);
  });

  it("is off when the organization turned editing off, and for a message still being sent", () => {
    expect(canEditContent(state(ROLE.owner, { realm_allow_message_editing: false }), mine(1), NOW)).toBe(false);
    expect(canEditContent(state(ROLE.member), { ...mine(1), local_id: "5.001" }, NOW)).toBe(false);
  });
});

describe("canDeleteMessage", () => {
  it("lets administrators delete any message, at any age", () => {
    expect(canDeleteMessage(state(ROLE.administrator), theirs(10 * 86_400), NOW)).toBe(true);
    expect(canDeleteMessage(state(ROLE.owner), theirs(1), NOW)).toBe(true);
  });

  it("follows delete_own_message_policy for one's own messages (default: administrators only)", () => {
    expect(canDeleteMessage(state(ROLE.member), mine(1), NOW)).toBe(false);
    expect(canDeleteMessage(state(ROLE.member, { realm_delete_own_message_policy: 1 }), mine(1), NOW)).toBe(true);
    expect(canDeleteMessage(state(ROLE.guest, { realm_delete_own_message_policy: 1 }), mine(1), NOW)).toBe(false);
    expect(canDeleteMessage(state(ROLE.guest, { realm_delete_own_message_policy: 5 }), mine(1), NOW)).toBe(true);
    expect(canDeleteMessage(state(ROLE.member, { realm_delete_own_message_policy: 4 }), mine(1), NOW)).toBe(false);
    expect(canDeleteMessage(state(ROLE.moderator, { realm_delete_own_message_policy: 4 }), mine(1), NOW)).toBe(true);
  });

  it("keeps members to their own messages (and their bots') and the time limit", () => {
    const anyone = { realm_delete_own_message_policy: 1 };
    expect(canDeleteMessage(state(ROLE.member, anyone), theirs(1), NOW)).toBe(false);
    expect(canDeleteMessage(state(ROLE.member, anyone), streamMessage(3, { sender_id: 12, timestamp: NOW - 1 }), NOW)).toBe(true);
    expect(canDeleteMessage(state(ROLE.member, anyone), mine(600), NOW)).toBe(false);
    expect(canDeleteMessage(state(ROLE.member, { ...anyone, realm_message_content_delete_limit_seconds: null }), mine(86_400), NOW)).toBe(true);
  });

  it("reads policy 3 as full members: past the waiting period", () => {
    const full = { realm_delete_own_message_policy: 3, realm_waiting_period_threshold: 10 };
    const joined = (days: number) => ({ date_joined: new Date((NOW - days * 86_400) * 1000).toISOString() });
    expect(canDeleteMessage(state(ROLE.member, full, joined(11)), mine(1), NOW)).toBe(true);
    expect(canDeleteMessage(state(ROLE.member, full, joined(2)), mine(1), NOW)).toBe(false);
    expect(isFullMember(state(ROLE.administrator, full, joined(0)), NOW)).toBe(true);
  });
});

describe("edit history", () => {
  const edited = { ...mine(1), last_edit_timestamp: NOW };
  it("is offered for edited messages unless the organization hides it", () => {
    expect(canViewEditHistory(state(ROLE.member), edited)).toBe(true);
    expect(canViewEditHistory(state(ROLE.member), mine(1))).toBe(false);
    expect(canViewEditHistory(state(ROLE.member, { realm_allow_edit_history: false }), edited)).toBe(false);
  });

  it("reads the newer visibility policy where the server sends it", () => {
    expect(editHistoryVisibility(state(ROLE.member, { realm_message_edit_history_visibility_policy: "none" }))).toBe("none");
    const moves = state(ROLE.member, { realm_message_edit_history_visibility_policy: "moves" });
    expect(canViewEditHistory(moves, { ...edited, edit_history: [{ prev_content: "a" }] })).toBe(false);
    expect(canViewEditHistory(moves, { ...edited, edit_history: [{ prev_topic: "old" }] })).toBe(true);
  });
});
