import { createSession, deleteSession } from "../../auth/session.js";
import type { Deps } from "../../deps.js";
import { markConfirmationUsed } from "../../data/confirmations.js";
import { deleteInvites, listRealmInvites } from "../../data/invites.js";
import type { InviteRecord } from "../../data/records/invite.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { getStreamsByIds } from "../../data/streams.js";
import { getUserIdByEmail, userById } from "../../data/users.js";
import { apiEmail } from "../../domain/email.js";
import { emailProblem } from "../../domain/invites.js";
import { Role } from "../../domain/roles.js";
import { ConfirmationLinkError, JsonableError } from "../../errors.js";
import { doAddSubscriptions } from "../streams/bulk-subscriptions.js";
import { doCreateUser } from "../users/create-user.js";
import { checkFullName, isStrongEnoughPassword } from "../users/validation.js";
import { notifyInvitesChanged } from "./notify.js";
import { accessSignupLink, checkSignupRealm } from "./signup-link.js";
import { signupEmailRefusal } from "./signup-request.js";

/** What `POST /json/signup` receives. */
export interface SignupInput {
  key: string;
  full_name: string;
  password: string;
  /** The address, for a reusable link only (other links fix it). */
  email?: string;
}

/** A finished sign-up: the new account and its browser session. */
export interface SignupResult {
  user_id: number;
  /** The account's API email (`POST /accounts/login` answers the same). */
  email: string;
  sessionId: string;
  csrfToken: string;
}

/**
 * The address a sign-up creates: the link's for an email invitation or a
 * mail-confirmed sign-up; for a reusable link the one given, checked as
 * Zulip's `HomepageForm` checks it (valid, allowed by the organization's
 * domain and disposable rules; no invitation needed).
 * @throws JsonableError 400 `Missing 'email' argument` style refusals and the form's messages
 */
function signupEmail(realm: RealmRecord, kind: string, linkEmail: string | undefined, given: string | undefined): string {
  if (kind !== "multiuse_invite") return linkEmail!;
  const email = (given ?? "").trim();
  if (email === "") throw new JsonableError("Missing 'email' argument", { code: "REQUEST_VARIABLE_MISSING", data: { var_name: "email" } });
  const refusal = signupEmailRefusal(email, emailProblem(realm, email));
  if (refusal) throw new JsonableError(refusal);
  return email;
}

/**
 * `POST /json/signup` (Zulip's `accounts_register` after
 * `/accounts/do_confirm/<key>` or `/join/<key>/`): creates the account a
 * sign-up link allows and signs the person in.
 *
 * Checks everything before the first write: the organization, the link
 * ({@link accessSignupLink}), the address (taken: `<email> already has an
 * account`; deactivated: `Account has been deactivated.`), the name, the
 * password's strength. Then marks a single-use link used (one conditional
 * UpdateItem, so of two people racing on one link one wins), creates the
 * user with the invited role (announced by `realm_user` `add`), joining the
 * default streams when the invitation includes them (a mail-confirmed
 * sign-up always does) and the invitation's streams; deletes the email
 * invitations of the same address (and sends `invites_changed`); tells the
 * referrer by a direct message from the Notification Bot when asked; and
 * starts a session (one PutItem).
 * @param previousSessionId the browser's `sessionid` cookie, ended as a login ends it
 * @throws ConfirmationLinkError 400 for an unknown, revoked, expired or used link
 * @throws JsonableError 400 `Name too long!`…, `The password is too weak.`, the address refusals
 */
export async function doSignup(
  deps: Deps,
  realmOrNull: RealmRecord | null,
  input: SignupInput,
  previousSessionId?: string,
): Promise<SignupResult> {
  const realm = checkSignupRealm(realmOrNull);
  const link = await accessSignupLink(deps, realm, input.key);
  const kind = link.confirmation.kind;
  const email = signupEmail(realm, kind, link.confirmation.email, input.email);
  const existingId = await getUserIdByEmail(deps, realm.id, email);
  if (existingId !== undefined) {
    const existing = await userById(deps, realm.id, existingId);
    throw new JsonableError(existing && !existing.is_active ? "Account has been deactivated." : `${email} already has an account`);
  }
  const fullName = checkFullName(input.full_name);
  if (!isStrongEnoughPassword(input.password)) throw new JsonableError("The password is too weak.");

  const now = Math.floor(deps.clock.now() / 1000);
  if (kind !== "multiuse_invite" && !(await markConfirmationUsed(deps, link.keyHash, now))) {
    throw new ConfirmationLinkError("used");
  }
  const invite = link.invite;
  const role = invite?.invited_as ?? Role.MEMBER;
  const user = await doCreateUser(deps, realm, {
    email,
    full_name: fullName,
    password: input.password,
    role,
    default_streams: invite === undefined || invite.include_realm_default_subscriptions,
  });
  await subscribeToInvitedStreams(deps, realm, user, invite);
  await removeInvitesOf(deps, realm, email, link.keyHash);
  if (invite?.notify_referrer_on_join) await notifyReferrer(deps, realm, invite.referred_by, user);
  const [{ sessionId, session }] = await Promise.all([
    createSession(deps, user),
    previousSessionId ? deleteSession(deps, previousSessionId) : undefined,
  ]);
  return { user_id: user.user_id, email: apiEmail(user, realm, deps.config), sessionId, csrfToken: session.csrf_token };
}

/** Subscribes a new user to the active streams of their invitation (a guest to no private stream they were not invited to). */
async function subscribeToInvitedStreams(deps: Deps, realm: RealmRecord, user: UserRecord, invite: InviteRecord | undefined): Promise<void> {
  if (!invite || invite.stream_ids.length === 0) return;
  const found = await getStreamsByIds(deps, realm.id, invite.stream_ids);
  const streams = invite.stream_ids.map((id) => found.get(id)).filter((s) => s !== undefined && !s.deactivated);
  if (streams.length > 0) await doAddSubscriptions(deps, realm, streams as NonNullable<(typeof streams)[number]>[], [user], { fromUserCreation: true });
}

/**
 * Deletes the email invitations of an address that just signed up (Zulip
 * revokes the other `PreregistrationUser`s of the address), keeping the
 * used link's confirmation so that following it again says "used", and
 * tells their referrers and the administrators. One Query of the realm's
 * invitations; nothing more when there are none.
 */
async function removeInvitesOf(deps: Deps, realm: RealmRecord, email: string, usedKeyHash: string): Promise<void> {
  const lower = email.toLowerCase();
  const invites = (await listRealmInvites(deps, realm.id)).filter((i) => !i.is_multiuse && i.email?.toLowerCase() === lower);
  if (invites.length === 0) return;
  await deleteInvites(deps, invites, usedKeyHash);
  await notifyInvitesChanged(deps, realm, [...new Set(invites.map((i) => i.referred_by))]);
}

/**
 * The direct message Zulip's Notification Bot sends a referrer whose
 * invitation was accepted (`process_new_human_user`). The send path
 * (`shared/actions/messages/`) is loaded on demand, so the sign-up's
 * Lambda carries it only in a chunk of its own.
 */
async function notifyReferrer(deps: Deps, realm: RealmRecord, referrerId: number, user: UserRecord): Promise<void> {
  const referrer = await userById(deps, realm.id, referrerId);
  if (!referrer || !referrer.is_active) return;
  const { sendDirectNotice } = await import("../messages/notification-bot.js");
  await sendDirectNotice(deps, realm, referrer, `${user.full_name} <\`${apiEmail(user, realm, deps.config)}\`> accepted your invitation to join Zulip!`);
}
