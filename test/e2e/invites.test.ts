/**
 * The invitation endpoints over HTTP (https://zulip.com/api/send-invites and
 * its siblings): permissions of each role, Zulip's refusals, the
 * `invites_changed` event an administrator's client receives, and the
 * invitation mail in the local mailbox.
 */
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../shared/deps.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { waitForEmail } from "../support/mailbox.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { jsonCall } from "../support/web-session.js";
import { systemGroupId } from "../../shared/domain/realm-settings.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

afterEach(() => {
  org.stack.deps.clock = systemClock;
});

const err = (msg: string, extra: Record<string, unknown> = {}) => ({
  status: 400,
  body: { result: "error", msg, code: "BAD_REQUEST", ...extra },
});
const ok = (extra: Record<string, unknown> = {}) => ({ status: 200, body: { result: "success", msg: "", ...extra } });

async function answer(res: Promise<{ status: number; body: any }>): Promise<{ status: number; body: any }> {
  const { status, body } = await res;
  return { status, body };
}

const invite = (user: TestUser, params: Record<string, unknown>) =>
  answer(org.api(user, "POST", "/invites", { stream_ids: [], ...params }));

function client(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

/** The open invitations `user` manages, by `GET /invites`. */
async function listed(user: TestUser): Promise<any[]> {
  const res = await org.api(user, "GET", "/invites");
  expect(res.status).toBe(200);
  return res.body.invites;
}

async function streamId(creator: TestUser, name: string, inviteOnly = false): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", { subscriptions: [{ name }], ...(inviteOnly ? { invite_only: true } : {}) });
  expect(res.body).toMatchObject({ result: "success" });
  return (await org.api(creator, "GET", "/get_stream_id", { stream: name })).body.stream_id as number;
}

/** The confirmation key of a mailed link. */
const keyOf = (text: string) => /\/accounts\/do_confirm\/([a-z2-7]{24})/.exec(text)![1]!;

describe("POST /invites", () => {
  it("invites by email: the mail with the inviter, organization and link, invites_changed to administrators and the inviter, listed by GET", async () => {
    const { admin, member, owner } = org.users;
    const sid = await streamId(member, "invites-public");
    const admins = client(owner);
    const inviter = client(member);
    await admins.register({ event_types: ["invites_changed"] });
    await inviter.register({ event_types: ["invites_changed"] });
    const before = Math.floor(Date.now() / 1000);

    const res = await invite(member, { invitee_emails: "New One <new1@test.example>, new2@test.example\nnew1@test.example", stream_ids: [sid] });

    expect(res).toEqual(ok());
    expect(await admins.waitFor((e) => e.type === "invites_changed")).toEqual({ type: "invites_changed", id: expect.any(Number) });
    expect(await inviter.waitFor((e) => e.type === "invites_changed")).toMatchObject({ type: "invites_changed" });
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "invitation" && m.to === "new1@test.example");
    expect(mail.subject).toBe(`${member.fullName} invited you to join ${org.realm.name}`);
    expect(mail.text).toContain(org.realm.name);
    expect(mail.text).toContain("expires in 10 days");
    expect(mail.links.some((l) => /\/accounts\/do_confirm\/[a-z2-7]{24}$/.test(l))).toBe(true);
    expect(mail.html).toContain(`/accounts/do_confirm/${keyOf(mail.text)}`);
    await waitForEmail(org.stack.mailDir, (m) => m.template === "invitation" && m.to === "new2@test.example");

    const mine = (await listed(member)).filter((i) => i.email?.startsWith("new"));
    expect(mine).toHaveLength(2);
    for (const i of mine) {
      expect(i).toEqual({
        id: expect.any(Number),
        invited_by_user_id: member.id,
        invited: expect.any(Number),
        expiry_date: i.invited + 14400 * 60,
        invited_as: 400,
        email: expect.stringMatching(/^new[12]@test\.example$/),
        notify_referrer_on_join: true,
        is_multiuse: false,
      });
      expect(i.invited).toBeGreaterThanOrEqual(before);
    }
    // Administrators see everyone's; other members only their own.
    expect((await listed(admin)).map((i) => i.email)).toEqual(expect.arrayContaining(["new1@test.example", "new2@test.example"]));
    expect((await listed(org.users.member2)).filter((i) => i.email?.startsWith("new"))).toEqual([]);
    await Promise.all([admins.delete(), inviter.delete()]);
  });

  it("refuses guests, bots, roles above the caller's, no address, and streams the caller cannot see or may not add others to", async () => {
    const { guest, bot, member, admin, moderator, owner } = org.users;
    const priv = await streamId(admin, "invites-private", true);
    const email = { invitee_emails: "someone@test.example" };
    expect(await invite(guest, email)).toEqual(err("Not allowed for guest users"));
    expect(await invite(bot, email)).toEqual(err("This endpoint does not accept bot requests."));
    expect(await invite(member, { ...email, invite_as: 200 })).toEqual(err("Must be an organization administrator"));
    expect(await invite(moderator, { ...email, invite_as: 300 })).toEqual(err("Must be an organization administrator"));
    expect(await invite(admin, { ...email, invite_as: 100 })).toEqual(err("Must be an organization owner"));
    expect(await invite(admin, { ...email, invite_as: 250 })).toEqual(err("Invalid invite_as"));
    expect(await invite(admin, { ...email, invite_expires_in_minutes: 0 })).toEqual(err("Invalid invite_expires_in_minutes"));
    expect(await invite(member, { invitee_emails: "" })).toEqual(err("You must specify at least one email address."));
    expect(await invite(member, { ...email, stream_ids: [priv] })).toEqual(err(`Invalid channel ID ${priv}. No invites were sent.`));
    expect(await invite(member, { ...email, stream_ids: [99999999] })).toEqual(err("Invalid channel ID 99999999. No invites were sent."));
    await withRealmSettings(org, { invite_to_stream_policy: 2 }, async () => {
      const sid = await streamId(member, "invites-policy");
      expect(await invite(member, { ...email, stream_ids: [sid] })).toEqual(
        err("You do not have permission to subscribe other users to channels."),
      );
    });
    await withRealmSettings(org, { invite_to_realm_policy: 2 }, async () => {
      expect(await invite(member, email)).toEqual(err("Insufficient permission"));
      expect(await invite(moderator, email)).toEqual(err("Insufficient permission"));
      expect(await invite(admin, { invitee_emails: "policy-admin@test.example" })).toEqual(ok());
    });
    expect(await invite(owner, { invitee_emails: "future-owner@test.example", invite_as: 100 })).toEqual(ok());
    expect(await invite(admin, { invitee_emails: "future-mod@test.example", invite_as: 300, invite_expires_in_minutes: null })).toEqual(ok());
    const mod = (await listed(admin)).find((i) => i.email === "future-mod@test.example");
    expect(mod).toMatchObject({ invited_as: 300, expiry_date: null });
  });

  it("answers Zulip's InvitationError: bad addresses refuse all; taken ones are skipped and the rest invited", async () => {
    const { admin, member, member2 } = org.users;
    const gone = await org.createUser("invites-gone");
    expect((await org.api(admin, "DELETE", `/users/${gone.id}`)).status).toBe(200);

    const fail = (msg: string, errors: unknown[], sent: boolean) =>
      err(msg, { code: "INVITATION_FAILED", errors, sent_invitations: sent, license_limit_reached: false, daily_limit_reached: false });
    expect(await invite(member, { invitee_emails: "not-an-address, fresh@test.example, max@mailinator.com, member2@test.example" })).toEqual(
      fail(
        "Some emails did not validate, so we didn't send any invitations.",
        [
          ["not-an-address", "Invalid address.", false],
          ["max@mailinator.com", "Please use your real email address.", false],
          [member2.email, "Already has an account.", false],
        ],
        false,
      ),
    );
    expect(await invite(member, { invitee_emails: `${member2.email}, ${gone.email}` })).toEqual(
      fail(
        "We weren't able to invite anyone.",
        [
          [member2.email, "Already has an account.", false],
          [gone.email, "Account has been deactivated.", true],
        ],
        false,
      ),
    );
    expect(await invite(member, { invitee_emails: `${member2.email}, partly@test.example` })).toEqual(
      fail(
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        [[member2.email, "Already has an account.", false]],
        true,
      ),
    );
    expect((await listed(member)).some((i) => i.email === "partly@test.example")).toBe(true);
    await withRealmSettings(org, { emails_restricted_to_domains: true }, async () => {
      expect((await invite(member, { invitee_emails: "a+b@test.example, c@test.example" })).body.errors).toEqual([
        ["a+b@test.example", "Email addresses containing + are not allowed.", false],
        ["c@test.example", "Outside your domain.", false],
      ]);
    });
  });

  it("stops at the organization's daily limit with daily_limit_reached", async () => {
    const emails = Array.from({ length: 101 }, (_, i) => `bulk${i}@test.example`).join(",");
    expect(await invite(org.users.admin, { invitee_emails: emails })).toEqual(
      err(
        "To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.",
        { code: "INVITATION_FAILED", errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true },
      ),
    );
  });
});

describe("GET, DELETE and resend of email invitations", () => {
  it("revokes and resends within the rules; expired invitations are not listed", async () => {
    const { admin, member, member2, guest } = org.users;
    expect(await invite(admin, { invitee_emails: "by-admin@test.example" })).toEqual(ok());
    expect(await invite(member, { invitee_emails: "by-member@test.example" })).toEqual(ok());
    const byAdmin = (await listed(admin)).find((i) => i.email === "by-admin@test.example")!;
    const byMember = (await listed(member)).find((i) => i.email === "by-member@test.example")!;

    expect(await answer(org.api(member, "DELETE", `/invites/${byAdmin.id}`))).toEqual(err("Must be an organization administrator"));
    expect(await answer(org.api(member2, "POST", `/invites/${byMember.id}/resend`))).toEqual(err("Must be an organization administrator"));
    expect(await answer(org.api(guest, "GET", "/invites"))).toEqual(err("Not allowed for guest users"));
    expect(await answer(org.api(admin, "DELETE", "/invites/99999999"))).toEqual(err("No such invitation"));
    expect(await answer(org.api(admin, "POST", "/invites/99999999/resend"))).toEqual(err("No such invitation"));

    // Resending mails a new link; the old one stops working.
    const first = await waitForEmail(org.stack.mailDir, (m) => m.to === "by-member@test.example");
    const changes = client(member);
    await changes.register({ event_types: ["invites_changed"] });
    expect(await answer(org.api(admin, "POST", `/invites/${byMember.id}/resend`))).toEqual(ok());
    await changes.waitFor((e) => e.type === "invites_changed");
    const second = await waitForEmail(org.stack.mailDir, (m) => m.to === "by-member@test.example" && m.file !== first.file);
    expect(keyOf(second.text)).not.toBe(keyOf(first.text));
    const old = await jsonCall(org.url, null, "GET", `/signup/${keyOf(first.text)}`);
    expect(old.body).toMatchObject({ result: "error", code: "CONFIRMATION_NOT_FOUND" });
    expect((await jsonCall(org.url, null, "GET", `/signup/${keyOf(second.text)}`)).body).toMatchObject({
      result: "success",
      kind: "invitation",
      email: "by-member@test.example",
    });

    // The member revokes their own; an administrator anyone's.
    expect(await answer(org.api(member, "DELETE", `/invites/${byMember.id}`))).toEqual(ok());
    await changes.waitFor((e) => e.type === "invites_changed");
    expect(await answer(org.api(admin, "DELETE", `/invites/${byAdmin.id}`))).toEqual(ok());
    expect((await listed(admin)).map((i) => i.id)).not.toEqual(expect.arrayContaining([byAdmin.id]));
    expect(await answer(org.api(member, "POST", `/invites/${byMember.id}/resend`))).toEqual(err("No such invitation"));
    await changes.delete();

    // An expired invitation is not listed.
    expect(await invite(member, { invitee_emails: "short@test.example", invite_expires_in_minutes: 5 })).toEqual(ok());
    expect((await listed(member)).some((i) => i.email === "short@test.example")).toBe(true);
    const now = Date.now();
    org.stack.deps.clock = { now: () => now + 6 * 60_000 };
    expect((await listed(member)).some((i) => i.email === "short@test.example")).toBe(false);
  });
});

describe("reusable invitation links", () => {
  it("are created by the create_multiuse_invite_group, listed with their link, revoked once", async () => {
    const { admin, member, moderator, owner } = org.users;
    const watcher = client(owner);
    await watcher.register({ event_types: ["invites_changed"] });
    expect(await answer(org.api(member, "POST", "/invites/multiuse", {}))).toEqual(err("Insufficient permission"));
    expect(await answer(org.api(org.users.guest, "POST", "/invites/multiuse", {}))).toEqual(err("Not allowed for guest users"));
    expect(await answer(org.api(admin, "POST", "/invites/multiuse", { invite_as: 100 }))).toEqual(err("Must be an organization owner"));

    const made = await answer(org.api(admin, "POST", "/invites/multiuse", { invite_expires_in_minutes: 60, invite_as: 600 }));
    expect(made).toEqual(ok({ invite_link: expect.stringMatching(/^https?:\/\/[^/]+\/join\/[a-z2-7]{24}\/$/) }));
    await watcher.waitFor((e) => e.type === "invites_changed");
    const link = (await listed(admin)).find((i) => i.is_multiuse && i.link_url === made.body.invite_link);
    expect(link).toEqual({
      id: expect.any(Number),
      invited_by_user_id: admin.id,
      invited: expect.any(Number),
      expiry_date: link.invited + 3600,
      invited_as: 600,
      link_url: made.body.invite_link,
      is_multiuse: true,
    });
    expect((await listed(member)).some((i) => i.is_multiuse)).toBe(false);

    await withRealmSettings(org, { create_multiuse_invite_group: systemGroupId(org.realm.id, "role:members") }, async () => {
      const mine = await answer(org.api(member, "POST", "/invites/multiuse", {}));
      expect(mine.status).toBe(200);
      const own = (await listed(member)).find((i) => i.link_url === mine.body.invite_link)!;
      expect(await answer(org.api(moderator, "DELETE", `/invites/multiuse/${own.id}`))).toEqual(err("Must be an organization administrator"));
      expect(await answer(org.api(member, "DELETE", `/invites/multiuse/${link.id}`))).toEqual(err("Must be an organization administrator"));
      expect(await answer(org.api(member, "DELETE", `/invites/multiuse/${own.id}`))).toEqual(ok());
    });
    expect(await answer(org.api(admin, "DELETE", `/invites/multiuse/${link.id}`))).toEqual(ok());
    await watcher.waitFor((e) => e.type === "invites_changed");
    expect(await answer(org.api(admin, "DELETE", `/invites/multiuse/${link.id}`))).toEqual(err("Invitation has already been revoked"));
    expect(await answer(org.api(admin, "DELETE", "/invites/multiuse/99999999"))).toEqual(err("No such invitation"));
    expect((await listed(admin)).some((i) => i.id === link.id && i.is_multiuse)).toBe(false);
    await watcher.delete();
  });
});
