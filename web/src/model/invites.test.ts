import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client.js";
import {
  canCreateMultiuseInvite,
  canInvite,
  canInviteByEmail,
  invitableRoles,
  invitedAddresses,
  inviteFailure,
  inviteParams,
  invitePath,
  inviteStreams,
  mayManageInvite,
  maySeeInvites,
  parseInviteeEmails,
  sortInvites,
  type Invite,
} from "./invites.js";
import { inviteState } from "./invites-fixtures.js";
import { EVENT_TYPES, registerParams } from "./store.js";

const DAY = 86_400;
const NOW = Date.parse("2024-06-01T00:00:00Z");

describe("who may invite", () => {
  it("follows invite_to_realm_policy for email invitations", () => {
    expect(canInviteByEmail(inviteState(400), NOW)).toBe(true);
    expect(canInviteByEmail(inviteState(600), NOW)).toBe(false);
    expect(canInviteByEmail(inviteState(400, { realm_invite_to_realm_policy: 2 }), NOW)).toBe(false);
    expect(canInviteByEmail(inviteState(200, { realm_invite_to_realm_policy: 2 }), NOW)).toBe(true);
    expect(canInviteByEmail(inviteState(400, { realm_invite_to_realm_policy: 4 }), NOW)).toBe(false);
    expect(canInviteByEmail(inviteState(300, { realm_invite_to_realm_policy: 4 }), NOW)).toBe(true);
    expect(canInviteByEmail(inviteState(100, { realm_invite_to_realm_policy: 6 }), NOW)).toBe(false);
  });

  it("counts the waiting period for the full-members policy", () => {
    const waiting = { realm_invite_to_realm_policy: 3, realm_waiting_period_threshold: 100_000 };
    expect(canInviteByEmail(inviteState(400, waiting), NOW)).toBe(false);
    expect(canInviteByEmail(inviteState(400, { ...waiting, realm_waiting_period_threshold: 1 }), NOW)).toBe(true);
    expect(canInviteByEmail(inviteState(300, waiting), NOW)).toBe(true);
  });

  it("follows create_multiuse_invite_group for reusable links", () => {
    expect(canCreateMultiuseInvite(inviteState(200), NOW)).toBe(true);
    expect(canCreateMultiuseInvite(inviteState(300), NOW)).toBe(false);
    expect(canCreateMultiuseInvite(inviteState(400, { realm_create_multiuse_invite_group: 5 }), NOW)).toBe(true);
    expect(canCreateMultiuseInvite(inviteState(600, { realm_create_multiuse_invite_group: 5 }), NOW)).toBe(false);
  });

  it("shows the invitations page to administrators and inviters only", () => {
    const nobody = { realm_invite_to_realm_policy: 6 };
    expect(maySeeInvites(inviteState(200, nobody), NOW)).toBe(true);
    expect(maySeeInvites(inviteState(400, nobody), NOW)).toBe(false);
    expect(canInvite(inviteState(400, nobody), NOW)).toBe(false);
    expect(maySeeInvites(inviteState(400), NOW)).toBe(true);
    expect(maySeeInvites(inviteState(600), NOW)).toBe(false);
  });

  it("offers the roles the inviter may grant", () => {
    expect(invitableRoles(100)).toEqual([100, 200, 300, 400, 600]);
    expect(invitableRoles(200)).toEqual([200, 300, 400, 600]);
    expect(invitableRoles(300)).toEqual([400, 600]);
    expect(invitableRoles(400)).toEqual([400, 600]);
  });

  it("lets people manage their own invitations, administrators all but owners'", () => {
    const s = (role: number) => inviteState(role);
    expect(mayManageInvite(s(400), { invited_by_user_id: 1, invited_as: 400 })).toBe(true);
    expect(mayManageInvite(s(400), { invited_by_user_id: 2, invited_as: 400 })).toBe(false);
    expect(mayManageInvite(s(200), { invited_by_user_id: 2, invited_as: 200 })).toBe(true);
    expect(mayManageInvite(s(200), { invited_by_user_id: 2, invited_as: 100 })).toBe(false);
    expect(mayManageInvite(s(100), { invited_by_user_id: 2, invited_as: 100 })).toBe(true);
  });

  it("registers for invites_changed and fetches the user groups the group-valued settings name", () => {
    expect(EVENT_TYPES).toContain("invites_changed");
    expect(registerParams().fetch_event_types).toEqual(expect.arrayContaining(["realm_user_groups"]));
  });
});

describe("the dialog's fields", () => {
  it("splits addresses at commas and lines, unwraps names, drops blanks and repeats", () => {
    expect(parseInviteeEmails("a@x.org, b@x.org\n\nHamlet <h@x.org>\nA@X.org,  ")).toEqual(["a@x.org", "b@x.org", "h@x.org"]);
    expect(parseInviteeEmails(" \n, ")).toEqual([]);
  });

  it("offers subscribed and public streams, defaults marked; guests only their subscriptions", () => {
    expect(inviteStreams(inviteState(400))).toEqual([
      { stream_id: 11, name: "design", isDefault: false },
      { stream_id: 10, name: "general", isDefault: true },
      { stream_id: 12, name: "random", isDefault: false },
    ]);
    expect(inviteStreams(inviteState(600)).map((s) => s.name)).toEqual(["design", "general"]);
  });

  it("sends the choices as the API takes them, defaults not repeated", () => {
    const defaults = new Set([10]);
    expect(inviteParams({ expiresInMinutes: null, inviteAs: 600, streamIds: [12, 10, 12], includeDefaults: true }, defaults)).toEqual({
      invite_expires_in_minutes: null,
      invite_as: 600,
      stream_ids: [12],
      include_realm_default_subscriptions: true,
    });
    expect(inviteParams({ expiresInMinutes: 1440, inviteAs: 400, streamIds: [12, 10], includeDefaults: false }, defaults).stream_ids).toEqual([10, 12]);
  });
});

describe("answers", () => {
  it("reads INVITATION_FAILED's skipped addresses and whether any were sent", () => {
    const err = new ApiError(400, "INVITATION_FAILED", "Some of those addresses are already using Zulip…", {
      errors: [
        ["hamlet@x.org", "Already has an account.", false],
        ["old@x.org", "Account has been deactivated.", true],
      ],
      sent_invitations: true,
    });
    const f = inviteFailure(err, err.message);
    expect(f).toEqual({
      message: err.message,
      skipped: [
        { email: "hamlet@x.org", reason: "Already has an account.", deactivated: false },
        { email: "old@x.org", reason: "Account has been deactivated.", deactivated: true },
      ],
      sentInvitations: true,
    });
    expect(invitedAddresses(["new@x.org", "Hamlet@x.org", "old@x.org"], f.skipped)).toEqual(["new@x.org"]);
    expect(inviteFailure(new ApiError(400, "BAD_REQUEST", "Insufficient permission"), "Insufficient permission")).toEqual({
      message: "Insufficient permission",
      skipped: [],
      sentInvitations: false,
    });
  });

  it("sorts invitations newest first and names their paths", () => {
    const inv = (id: number, invited: number, is_multiuse = false): Invite => ({ id, invited, is_multiuse, invited_by_user_id: 1, expiry_date: invited + DAY, invited_as: 400 });
    expect(sortInvites([inv(1, 100), inv(2, 300), inv(1, 300, true)]).map((i) => [i.id, i.is_multiuse])).toEqual([
      [2, false],
      [1, true],
      [1, false],
    ]);
    expect(invitePath(inv(4, 0))).toBe("/invites/4");
    expect(invitePath(inv(4, 0, true))).toBe("/invites/multiuse/4");
  });
});
