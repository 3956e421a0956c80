import { describe, expect, it } from "vitest";
import { Role } from "./roles.js";
import {
  canReadStreamHistory,
  canRemoveSubscribers,
  checkStreamPostPolicy,
  hasBasicStreamAccess,
  isProvisionalMember,
  parseMessageRetentionDays,
} from "./stream-permissions.js";

const pub = { invite_only: false, is_web_public: false, history_public_to_subscribers: true };
const webPublic = { invite_only: false, is_web_public: true, history_public_to_subscribers: true };
const privShared = { invite_only: true, is_web_public: false, history_public_to_subscribers: true };
const privProtected = { invite_only: true, is_web_public: false, history_public_to_subscribers: false };
const active = { active: true, role: 50 } as const;
const inactive = { active: false, role: 50 };

const user = (role: number, extra: Record<string, unknown> = {}) => ({ role, date_joined: 0, is_bot: false, ...extra });

describe("hasBasicStreamAccess", () => {
  it("opens public streams to non-guests and web-public streams to everyone", () => {
    expect(hasBasicStreamAccess(user(Role.MEMBER), pub, undefined)).toBe(true);
    expect(hasBasicStreamAccess(user(Role.GUEST), pub, undefined)).toBe(false);
    expect(hasBasicStreamAccess(user(Role.GUEST), pub, active)).toBe(true);
    expect(hasBasicStreamAccess(user(Role.GUEST), webPublic, undefined)).toBe(true);
  });

  it("opens private streams to active subscribers, and to administrators only when allowed", () => {
    expect(hasBasicStreamAccess(user(Role.MEMBER), privShared, active)).toBe(true);
    expect(hasBasicStreamAccess(user(Role.MEMBER), privShared, inactive)).toBe(false);
    expect(hasBasicStreamAccess(user(Role.OWNER), privShared, undefined)).toBe(false);
    expect(hasBasicStreamAccess(user(Role.OWNER), privShared, undefined, { allowRealmAdmin: true })).toBe(true);
    expect(hasBasicStreamAccess(user(Role.MODERATOR), privShared, undefined, { allowRealmAdmin: true })).toBe(false);
  });
});

describe("canReadStreamHistory", () => {
  it("follows Zulip's can_access_stream_history", () => {
    expect(canReadStreamHistory(user(Role.MEMBER), pub, undefined)).toBe(true);
    expect(canReadStreamHistory(user(Role.GUEST), pub, undefined)).toBe(false);
    expect(canReadStreamHistory(user(Role.GUEST), pub, active)).toBe(true);
    expect(canReadStreamHistory(user(Role.GUEST), webPublic, undefined)).toBe(true);
    expect(canReadStreamHistory(user(Role.MEMBER), privShared, active)).toBe(true);
    expect(canReadStreamHistory(user(Role.MEMBER), privShared, undefined)).toBe(false);
    expect(canReadStreamHistory(user(Role.OWNER), privShared, undefined)).toBe(false);
    expect(canReadStreamHistory(user(Role.MEMBER), privProtected, active)).toBe(false);
  });
});

describe("checkStreamPostPolicy", () => {
  const policy = (p: number) => ({ stream_post_policy: p });

  it("lets everyone post under policy 1", () => {
    expect(() => checkStreamPostPolicy(user(Role.GUEST), policy(1))).not.toThrow();
  });

  it("restricts policy 2 to administrators", () => {
    expect(() => checkStreamPostPolicy(user(Role.ADMINISTRATOR), policy(2))).not.toThrow();
    expect(() => checkStreamPostPolicy(user(Role.MODERATOR), policy(2))).toThrow(
      "Only organization administrators can send to this channel.",
    );
  });

  it("restricts policy 4 to moderators and above", () => {
    expect(() => checkStreamPostPolicy(user(Role.MODERATOR), policy(4))).not.toThrow();
    expect(() => checkStreamPostPolicy(user(Role.MEMBER), policy(4))).toThrow(
      "Only organization administrators and moderators can send to this channel.",
    );
  });

  it("refuses guests, and new members during the waiting period, under policy 3", () => {
    expect(() => checkStreamPostPolicy(user(Role.MEMBER), policy(3))).not.toThrow();
    expect(() => checkStreamPostPolicy(user(Role.GUEST), policy(3))).toThrow("Guests cannot send to this channel.");
    const realm = { settings: { waiting_period_threshold: 3 } };
    const newcomer = user(Role.MEMBER, { date_joined: 1000 });
    expect(() => checkStreamPostPolicy(newcomer, policy(3), { realm, nowSeconds: 1000 + 86400 })).toThrow(
      "New members cannot send to this channel.",
    );
    expect(() => checkStreamPostPolicy(newcomer, policy(3), { realm, nowSeconds: 1000 + 3 * 86400 })).not.toThrow();
  });

  it("lets a bot post when its owner may", () => {
    const bot = user(Role.MEMBER, { is_bot: true });
    expect(() => checkStreamPostPolicy(bot, policy(2))).toThrow();
    expect(() => checkStreamPostPolicy(bot, policy(2), { botOwner: user(Role.OWNER) })).not.toThrow();
    expect(() => checkStreamPostPolicy(bot, policy(2), { botOwner: user(Role.MEMBER) })).toThrow(
      "Only organization administrators can send to this channel.",
    );
  });
});

describe("isProvisionalMember", () => {
  it("is false with Zulip's default waiting period of 0 days, and for moderators", () => {
    expect(isProvisionalMember(user(Role.MEMBER, { date_joined: 100 }), { settings: {} }, 100)).toBe(false);
    expect(isProvisionalMember(user(Role.MODERATOR), { settings: { waiting_period_threshold: 10 } }, 1)).toBe(false);
  });
});

describe("canRemoveSubscribers", () => {
  it("needs an administrator or a stream administrator who can see the stream", () => {
    expect(canRemoveSubscribers(user(Role.MEMBER), pub, active)).toBe(false);
    expect(canRemoveSubscribers(user(Role.MEMBER), pub, { active: true, role: 20 } as const)).toBe(true);
    expect(canRemoveSubscribers(user(Role.ADMINISTRATOR), privShared, undefined)).toBe(true);
  });
});

describe("parseMessageRetentionDays", () => {
  it("maps the special values and accepts positive integers", () => {
    expect(parseMessageRetentionDays("realm_default")).toBeNull();
    expect(parseMessageRetentionDays("unlimited")).toBe(-1);
    expect(parseMessageRetentionDays(30)).toBe(30);
  });

  it("refuses anything else with Zulip's message", () => {
    expect(() => parseMessageRetentionDays("forever")).toThrow("Bad value for 'message_retention_days': forever");
    expect(() => parseMessageRetentionDays(0)).toThrow("Bad value for 'message_retention_days': 0");
    expect(() => parseMessageRetentionDays(1.5)).toThrow("Bad value for 'message_retention_days': 1.5");
  });
});
