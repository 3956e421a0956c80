import { describe, expect, it } from "vitest";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import { apiEmail, canSeeDeliveryEmail, EmailVisibility, emailVisibilityOf, isValidEmailAddress } from "./email.js";

const realm = { string_id: "acme", user_settings_defaults: {} } as unknown as RealmRecord;
const config = { ROOT_DOMAIN: "chat.example.com:8443" };
const user = (extra: Partial<UserRecord> = {}) =>
  ({ user_id: 7, role: 400, is_bot: false, delivery_email: "a@x.example", settings: {}, ...extra }) as UserRecord;

describe("isValidEmailAddress", () => {
  it.each(["a@b.example", "first.last+tag@sub.example.co", "o'brien@x.io", "x@localhost"])("accepts %s", (e) => {
    expect(isValidEmailAddress(e)).toBe(true);
  });
  it.each([
    "",
    "plain",
    "a@b",
    "@b.example",
    "a@",
    "a b@c.example",
    "a@@b.example",
    ".a@b.example",
    "a..b@c.example",
    "a@b..example",
    "a@-b.example",
    "a@b.123",
    `${"a".repeat(65)}@b.example`,
  ])("refuses %j", (e) => {
    expect(isValidEmailAddress(e)).toBe(false);
  });
});

describe("email visibility", () => {
  it("uses the user's own setting, else everyone; the realm default applies only through the copy made at creation", () => {
    expect(emailVisibilityOf(user(), realm)).toBe(EmailVisibility.EVERYONE);
    const strict = { ...realm, user_settings_defaults: { email_address_visibility: 3 } } as RealmRecord;
    expect(emailVisibilityOf(user(), strict)).toBe(EmailVisibility.EVERYONE);
    expect(emailVisibilityOf(user({ settings: { email_address_visibility: 2 } }), strict)).toBe(2);
  });

  it("keeps bots visible to everyone, so their API email is the real one", () => {
    const bot = user({ is_bot: true, delivery_email: "bot@x.example", settings: { email_address_visibility: 4 } });
    expect(emailVisibilityOf(bot, realm)).toBe(EmailVisibility.EVERYONE);
    expect(apiEmail(bot, realm, config)).toBe("bot@x.example");
    expect(apiEmail(user({ settings: { email_address_visibility: 4 } }), realm, config)).toBe("user7@acme.chat.example.com");
  });

  it("grants access to the real address by role", () => {
    const target = user({ settings: { email_address_visibility: EmailVisibility.MODERATORS } });
    expect(canSeeDeliveryEmail(user({ user_id: 1, role: 300 }), target, realm)).toBe(true);
    expect(canSeeDeliveryEmail(user({ user_id: 1, role: 400 }), target, realm)).toBe(false);
    expect(canSeeDeliveryEmail(target, target, realm)).toBe(true);
  });
});
