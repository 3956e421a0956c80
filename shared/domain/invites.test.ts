import { describe, expect, it } from "vitest";
import { canInviteUsersByEmail, emailProblem, inviteRoleRefusal, parseInviteeEmails } from "./invites.js";
import { Role } from "./roles.js";

const realm = (settings: Record<string, unknown> = {}) => ({ id: 1, settings });

describe("parseInviteeEmails", () => {
  it("splits at commas and newlines, takes the address of `Name <address>`, trims and drops duplicates", () => {
    expect(parseInviteeEmails("a@x.example, Bo <b@x.example>\n a@x.example ,")).toEqual(["a@x.example", "b@x.example", ""]);
  });
});

describe("emailProblem", () => {
  it("refuses invalid addresses, disposable ones when the realm says so, and anything outside its domains when restricted", () => {
    expect(emailProblem(realm(), "nope")).toBe("invalid");
    expect(emailProblem(realm(), "a@mailinator.com")).toBe("disposable");
    expect(emailProblem(realm(), "a@sub.yopmail.com")).toBe("disposable");
    expect(emailProblem(realm({ disallow_disposable_email_addresses: false }), "a@mailinator.com")).toBeNull();
    expect(emailProblem(realm(), "a@company.example")).toBeNull();
    expect(emailProblem(realm({ emails_restricted_to_domains: true }), "a+b@company.example")).toBe("plus");
    expect(emailProblem(realm({ emails_restricted_to_domains: true }), "a@company.example")).toBe("outside_domain");
  });
});

describe("inviteRoleRefusal", () => {
  it("lets owners invite owners, administrators invite administrators and moderators, everyone members and guests", () => {
    expect(inviteRoleRefusal(Role.OWNER, { role: Role.ADMINISTRATOR })).toBe("owner");
    expect(inviteRoleRefusal(Role.OWNER, { role: Role.OWNER })).toBeNull();
    expect(inviteRoleRefusal(Role.ADMINISTRATOR, { role: Role.MODERATOR })).toBe("admin");
    expect(inviteRoleRefusal(Role.MODERATOR, { role: Role.MEMBER })).toBe("admin");
    expect(inviteRoleRefusal(Role.MODERATOR, { role: Role.ADMINISTRATOR })).toBeNull();
    expect(inviteRoleRefusal(Role.GUEST, { role: Role.MEMBER })).toBeNull();
  });
});

describe("canInviteUsersByEmail", () => {
  it("follows invite_to_realm_policy: members, administrators, full members, moderators, nobody", () => {
    const now = 100 * 86_400;
    const fresh = { role: Role.MEMBER, date_joined: now - 86_400 };
    expect(canInviteUsersByEmail(realm(), fresh, now)).toBe(true);
    expect(canInviteUsersByEmail(realm({ invite_to_realm_policy: 2 }), fresh, now)).toBe(false);
    expect(canInviteUsersByEmail(realm({ invite_to_realm_policy: 3, waiting_period_threshold: 3 }), fresh, now)).toBe(false);
    expect(canInviteUsersByEmail(realm({ invite_to_realm_policy: 4 }), { role: Role.MODERATOR, date_joined: 0 }, now)).toBe(true);
    expect(canInviteUsersByEmail(realm({ invite_to_realm_policy: 6 }), { role: Role.OWNER, date_joined: 0 }, now)).toBe(false);
  });
});
