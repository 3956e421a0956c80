import { generateConfirmationKey, hashConfirmationKey } from "../../auth/confirmation-key.js";
import { checkMemberOrAdmin } from "../../access/user-group.js";
import type { Deps } from "../../deps.js";
import { allocateIds } from "../../data/counters.js";
import { countInvitesSent, getInvite, putInvitesWithLinks, replaceInviteLink } from "../../data/invites.js";
import type { InviteRecord } from "../../data/records/invite.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { getUsersByIds, userById, userIdsByEmails } from "../../data/users.js";
import {
  canInviteUsersByEmail,
  dailyInviteLimit,
  emailProblem,
  INVITE_EMAIL_REASONS,
  MIN_INVITER_AGE_SECONDS,
} from "../../domain/invites.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { InsufficientPermissionError, InvitationError, JsonableError } from "../../errors.js";
import { queueEmails } from "../../mail/outgoing.js";
import { NOTIFICATION_BOT_EMAIL } from "../users/notification-bot.js";
import {
  checkInviteRole,
  checkInviteStreams,
  checkInviteTerms,
  isOpenInvite,
  type InviteOptions,
} from "./check-invite.js";
import { confirmLinkUrl, invitationEmail } from "./emails.js";
import { notifyInvitesChanged } from "./notify.js";

const nowSeconds = (deps: Deps) => Math.floor(deps.clock.now() / 1000);

const DAILY_LIMIT_MSG =
  "To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.";

/**
 * Counts invitation emails against the realm's daily limit (Zulip's
 * `check_invite_limit`). One conditional UpdateItem.
 * @throws InvitationError with `daily_limit_reached` when the day's total would pass the limit
 */
async function checkInviteLimit(deps: Deps, realm: RealmRecord, count: number): Promise<void> {
  const now = nowSeconds(deps);
  if (!(await countInvitesSent(deps, realm.id, Math.floor(now / 86_400), count, dailyInviteLimit(realm, now)))) {
    throw new InvitationError(DAILY_LIMIT_MSG, [], { sentInvitations: false, dailyLimitReached: true });
  }
}

/**
 * Zulip's `get_existing_user_errors`: addresses taken in the realm (by an
 * active or a deactivated account) or reserved for the system bots, with
 * Zulip's reasons. One BatchGet of the addresses, one of their users.
 * @returns `[email, reason, is_deactivated]` per taken address
 */
async function existingUserErrors(deps: Deps, realm: RealmRecord, emails: string[]): Promise<[string, string, boolean][]> {
  const ids = await userIdsByEmails(deps, realm.id, emails);
  const users = ids.size > 0 ? await getUsersByIds(deps, realm.id, [...new Set(ids.values())]) : new Map<number, UserRecord>();
  const errors: [string, string, boolean][] = [];
  for (const email of emails) {
    if (email.toLowerCase() === NOTIFICATION_BOT_EMAIL) {
      errors.push([email, "Reserved for system bots.", false]);
      continue;
    }
    const id = ids.get(email.toLowerCase());
    const user = id === undefined ? undefined : users.get(id);
    if (!user) continue;
    errors.push(user.is_active ? [email, "Already has an account.", false] : [email, "Account has been deactivated.", true]);
  }
  return errors;
}

/**
 * `POST /invites` (https://zulip.com/api/send-invites; Zulip's
 * `invite_users_backend` and `do_invite_users`): invites addresses by
 * email, each with a link of its own (`/accounts/do_confirm/<key>`).
 *
 * Checks, in Zulip's order: a member or above, not a bot; the realm's
 * `invite_to_realm_policy`; the role (owners by owners; administrators and
 * moderators by administrators); at least one address; the streams; the
 * daily limit; a new account in an organization without `invite_required`;
 * then every address (valid, allowed by the realm's domain and disposable
 * rules: any bad one refuses all), and addresses that already have an
 * account are skipped. Writes the invitations with their links (one
 * transaction per 50), queues one `invitation` email each, and sends
 * `invites_changed`.
 * @throws JsonableError 400 `Insufficient permission`, `Invalid invite_as`,
 *   `You must specify at least one email address.`, the errors of
 *   {@link checkInviteStreams}, {@link checkInviteRole}, {@link checkMemberOrAdmin}
 * @throws InvitationError 400 `INVITATION_FAILED`: `Some emails did not validate, so we didn't send any invitations.`,
 *   `We weren't able to invite anyone.`, the daily limit, and, after sending to the others,
 *   `Some of those addresses are already using Zulip, …` with `sent_invitations: true`
 */
export async function doInviteUsers(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  emails: string[],
  options: InviteOptions,
): Promise<void> {
  checkMemberOrAdmin(user);
  const now = nowSeconds(deps);
  if (!canInviteUsersByEmail(realm, user, now)) throw new InsufficientPermissionError();
  const { invitedAs, expiresAt } = checkInviteTerms(options, now);
  checkInviteRole(invitedAs, user);
  if (emails.length === 0 || (emails.length === 1 && emails[0] === "")) {
    throw new JsonableError("You must specify at least one email address.");
  }
  const streams = await checkInviteStreams(deps, realm, user, options.stream_ids);

  if (realmSettings(realm).invite_required !== true && !isRealmAdmin(user) && user.date_joined > now - MIN_INVITER_AGE_SECONDS) {
    throw new InvitationError(
      "Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.",
      [],
      { sentInvitations: false },
    );
  }
  const invalid: [string, string, boolean][] = [];
  for (const email of emails) {
    const problem = emailProblem(realm, email);
    if (problem) invalid.push([email, INVITE_EMAIL_REASONS[problem], false]);
  }
  const valid = emails.filter((e) => !invalid.some(([bad]) => bad === e));
  const skipped = await existingUserErrors(deps, realm, valid);
  if (invalid.length > 0) {
    throw new InvitationError("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...skipped], {
      sentInvitations: false,
    });
  }
  if (skipped.length === emails.length) {
    throw new InvitationError("We weren't able to invite anyone.", skipped, { sentInvitations: false });
  }
  const invitees = valid.filter((e) => !skipped.some(([taken]) => taken === e));
  await checkInviteLimit(deps, realm, invitees.length);

  const first = await allocateIds(deps, "invite", invitees.length);
  const entries = invitees.map((email, i) => {
    const key = generateConfirmationKey();
    const invite: InviteRecord = {
      realm_id: realm.id,
      id: first + i,
      is_multiuse: false,
      referred_by: user.user_id,
      invited_as: invitedAs,
      invited_at: now,
      expires_at: expiresAt,
      email,
      stream_ids: streams.map((s) => s.stream_id),
      include_realm_default_subscriptions: options.include_realm_default_subscriptions ?? false,
      notify_referrer_on_join: options.notify_referrer_on_join ?? true,
      key_hash: hashConfirmationKey(key),
    };
    return { key, invite };
  });
  await putInvitesWithLinks(
    deps,
    entries.map(({ invite }) => ({
      invite,
      confirmation: { realm_id: realm.id, kind: "invitation", object_id: invite.id, email: invite.email, created_at: now, expires_at: expiresAt },
    })),
  );
  await queueEmails(
    deps,
    entries.map(({ key, invite }) =>
      invitationEmail(realm, deps.config, user, invite.email!, confirmLinkUrl(realm, deps.config, key), expiresAt, now),
    ),
  );
  await notifyInvitesChanged(deps, realm, [user.user_id]);
  if (skipped.length > 0) {
    throw new InvitationError(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      { sentInvitations: true },
    );
  }
}

/**
 * Loads an email invitation the caller may manage (Zulip's
 * `revoke_user_invite` / `resend_user_invite_email` checks): one of the
 * realm's, not revoked; someone else's only for an administrator (an
 * owner's invitation only for an owner).
 * @throws JsonableError 400 `No such invitation`, and the errors of {@link checkInviteRole}
 */
export async function accessUserInvite(deps: Deps, realm: RealmRecord, user: UserRecord, inviteId: number): Promise<InviteRecord> {
  checkMemberOrAdmin(user);
  const invite = await getInvite(deps, realm.id, false, inviteId);
  if (!invite) throw new JsonableError("No such invitation");
  if (invite.referred_by !== user.user_id) checkInviteRole(invite.invited_as, user, true);
  return invite;
}

/**
 * `POST /invites/{invite_id}/resend` (https://zulip.com/api/resend-email-invite;
 * Zulip's `do_send_user_invite_email`): mails an open email invitation
 * again, with a new link (the old one stops working; the expiry stays),
 * counted against the daily limit, and sends `invites_changed`.
 * @throws JsonableError 400 `No such invitation` (also when revoked, used or expired), and those of {@link accessUserInvite}
 * @throws InvitationError 400 at the daily limit
 */
export async function doResendUserInvite(deps: Deps, realm: RealmRecord, user: UserRecord, inviteId: number): Promise<void> {
  const invite = await accessUserInvite(deps, realm, user, inviteId);
  const now = nowSeconds(deps);
  if (!isOpenInvite(invite, now)) throw new JsonableError("No such invitation");
  const referrer = invite.referred_by === user.user_id ? user : await userById(deps, realm.id, invite.referred_by);
  await checkInviteLimit(deps, realm, 1);
  const key = generateConfirmationKey();
  const confirmation = {
    realm_id: realm.id,
    kind: "invitation" as const,
    object_id: invite.id,
    email: invite.email,
    created_at: now,
    expires_at: invite.expires_at,
  };
  if (!(await replaceInviteLink(deps, invite, hashConfirmationKey(key), confirmation))) {
    throw new JsonableError("No such invitation");
  }
  await queueEmails(deps, [
    invitationEmail(realm, deps.config, referrer ?? user, invite.email!, confirmLinkUrl(realm, deps.config, key), invite.expires_at, now),
  ]);
  await notifyInvitesChanged(deps, realm, [invite.referred_by]);
}
