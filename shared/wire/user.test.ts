import { describe, expect, it } from "vitest";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import { gravatarUrl } from "../domain/avatar.js";
import { includesDeliveryEmail, isoTimestamp, userToWire } from "./user.js";

const realm = { string_id: "", user_settings_defaults: {} } as unknown as RealmRecord;
const config = { ROOT_DOMAIN: "chat.example.com" };
const user = (extra: Partial<UserRecord> = {}): UserRecord => ({
  realm_id: 1,
  user_id: 7,
  delivery_email: "seven@x.example",
  full_name: "Seven",
  role: 400,
  is_active: true,
  is_bot: false,
  bot_type: null,
  bot_owner_id: null,
  is_billing_admin: false,
  avatar_source: "G",
  avatar_version: 1,
  timezone: "",
  date_joined: 1_700_000_000,
  api_key: "k",
  password_hash: null,
  settings: {},
  profile_data: {},
  ...extra,
});
const admin = user({ user_id: 1, role: 200 });
const moderator = user({ user_id: 2, role: 300 });

describe("includesDeliveryEmail (spec: limited visibility and an administrator with access)", () => {
  it("never for visibility everyone", () => {
    expect(includesDeliveryEmail(user(), realm, admin)).toBe(false);
  });
  it("for administrators under members/admins/moderators visibility, not for others", () => {
    for (const v of [2, 3, 5]) {
      const target = user({ settings: { email_address_visibility: v } });
      expect(includesDeliveryEmail(target, realm, admin)).toBe(true);
      expect(includesDeliveryEmail(target, realm, moderator)).toBe(false);
    }
  });
  it("not even for administrators under visibility nobody", () => {
    expect(includesDeliveryEmail(user({ settings: { email_address_visibility: 4 } }), realm, admin)).toBe(false);
  });
});

describe("userToWire", () => {
  it("builds exactly the spec's fields for a human", () => {
    expect(userToWire(user(), realm, admin, config, { clientGravatar: false })).toEqual({
      user_id: 7,
      email: "seven@x.example",
      full_name: "Seven",
      is_bot: false,
      bot_type: null,
      role: 400,
      is_owner: false,
      is_admin: false,
      is_billing_admin: false,
      is_guest: false,
      is_active: true,
      avatar_url: gravatarUrl("seven@x.example", 1),
      avatar_version: 1,
      timezone: "",
      date_joined: isoTimestamp(1_700_000_000),
    });
  });

  it("keeps avatar_url for a hidden address the viewer cannot use to compute the gravatar", () => {
    const hidden = user({ settings: { email_address_visibility: 3 } });
    expect(userToWire(hidden, realm, moderator, config, { clientGravatar: true }).avatar_url).toBe(
      gravatarUrl("seven@x.example", 1),
    );
    expect(userToWire(hidden, realm, admin, config, { clientGravatar: true }).avatar_url).toBeNull();
  });

  it("adds bot_owner_id to bots and profile_data to humans only", () => {
    const bot = user({ is_bot: true, bot_type: 1, bot_owner_id: 3 });
    const wire = userToWire(bot, realm, admin, config, { clientGravatar: true, includeCustomProfileFields: true });
    expect(wire).toMatchObject({ bot_type: 1, bot_owner_id: 3 });
    expect(wire).not.toHaveProperty("profile_data");
    expect(userToWire(user(), realm, admin, config, { clientGravatar: true, includeCustomProfileFields: true }).profile_data).toEqual(
      {},
    );
  });

  it("formats date_joined like Zulip, with microseconds and +00:00", () => {
    expect(isoTimestamp(1_700_000_000)).toBe("2023-11-14T22:13:20.000000+00:00");
  });
});
