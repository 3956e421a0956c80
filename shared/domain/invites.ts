import type { RealmRecord } from "../data/records/realm.js";
import { isDisposableEmailDomain } from "./disposable-email.js";
import { isValidEmailAddress } from "./email.js";
import { isFullMember, realmGroupSettingAllows, realmSettings } from "./realm-settings.js";
import { Role } from "./roles.js";

/**
 * Rules of invitations and sign-up without storage (Zulip's
 * `zerver/views/invite.py`, `zerver/actions/invites.py`,
 * `zerver/lib/email_validation.py`; https://zulip.com/help/invite-new-users).
 */

/** The roles an invitation may give (OpenAPI `InviteRoleParameter`). */
export const INVITE_AS_VALUES: readonly number[] = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];

/** An invitation's lifetime when the request names none: Zulip's `INVITATION_LINK_VALIDITY_DAYS` (10 days), in minutes. */
export const DEFAULT_INVITE_EXPIRY_MINUTES = 10 * 24 * 60;

/** Longest lifetime accepted for an expiring invitation: 10 years, in minutes (a bound, not Zulip's; `null` never expires). */
export const MAX_INVITE_EXPIRY_MINUTES = 10 * 365 * 24 * 60;

/** A mail-confirmed sign-up link's lifetime: Zulip's `CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS` (1 day), in seconds. */
export const USER_REGISTRATION_VALIDITY_SECONDS = 24 * 3600;

/** Organizations this young count as new for the daily invitation limit: Zulip's `INVITES_NEW_REALM_DAYS` (7), in seconds. */
export const NEW_REALM_SECONDS = 7 * 24 * 3600;

/**
 * Invitation emails an organization may send per UTC day: Zulip's
 * `INVITES_DEFAULT_REALM_DAILY_MAX` (100) while it is new; afterwards a
 * guard against a compromised account mailing without end (Zulip applies
 * no limit on servers without open organization creation).
 */
export function dailyInviteLimit(realm: Pick<RealmRecord, "date_created">, nowSeconds: number): number {
  return nowSeconds - realm.date_created < NEW_REALM_SECONDS ? 100 : 1000;
}

/** A member account younger than this may not invite to an organization without `invite_required`: Zulip's `INVITES_MIN_USER_AGE_DAYS` (3), in seconds. */
export const MIN_INVITER_AGE_SECONDS = 3 * 24 * 3600;

/**
 * The addresses of `POST /invites`'s `invitee_emails` (Zulip's
 * `get_invitee_emails_set`): split at commas and newlines, a
 * `Name <address>` reduced to the address, trimmed, duplicates dropped.
 * Empty entries stay (they are refused as invalid addresses).
 */
export function parseInviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    out.add((named ? named[1]! : part).trim());
  }
  return [...out];
}

/** Why an address may not join a realm (`emailProblem`), with Zulip's per-address reason for invitations. */
export type EmailProblem = "invalid" | "outside_domain" | "disposable" | "plus";

/** Zulip's `validate_email_is_valid` reasons, as `POST /invites` lists them in `errors`. */
export const INVITE_EMAIL_REASONS: Record<EmailProblem, string> = {
  invalid: "Invalid address.",
  outside_domain: "Outside your domain.",
  disposable: "Please use your real email address.",
  plus: "Email addresses containing + are not allowed.",
};

/**
 * The organization's allowed email domains (Zulip's `RealmDomain`s). This
 * server has no endpoint that adds any yet (`realm_domains` is empty), so
 * an organization restricted to its domains accepts no address.
 */
export function realmDomains(_realm: Pick<RealmRecord, "settings">): { domain: string; allow_subdomains: boolean }[] {
  return [];
}

/**
 * Whether an address may join a realm (Zulip's `validate_email_is_valid`
 * with `get_realm_email_validator`): a valid address; when the realm is
 * restricted to its domains, no `+` in the local part and a domain (or,
 * where allowed, a subdomain) of the realm's; otherwise, when the realm
 * refuses disposable addresses, not a disposable domain.
 * @returns the problem, or null when the address is acceptable
 */
export function emailProblem(realm: Pick<RealmRecord, "id" | "settings">, email: string): EmailProblem | null {
  if (!isValidEmailAddress(email)) return "invalid";
  const settings = realmSettings(realm);
  const at = email.lastIndexOf("@");
  const domain = email.slice(at + 1).toLowerCase();
  if (settings.emails_restricted_to_domains === true) {
    if (email.slice(0, at).includes("+")) return "plus";
    const domains = realmDomains(realm);
    if (domains.some((d) => d.domain === domain)) return null;
    const parents = domain.split(".").map((_, i, labels) => labels.slice(i + 1).join("."));
    if (domains.some((d) => d.allow_subdomains && parents.includes(d.domain))) return null;
    return "outside_domain";
  }
  if (settings.disallow_disposable_email_addresses === true && isDisposableEmailDomain(domain)) return "disposable";
  return null;
}

/**
 * Whether a user may send email invitations (Zulip's
 * `can_invite_users_by_email`): the realm's `invite_to_realm_policy`
 * (1 members, 2 administrators, 3 full members, 4 moderators, 6 nobody).
 * Guests and bots are refused before (Zulip's `require_member_or_admin`).
 * @param nowSeconds UNIX seconds (full membership)
 */
export function canInviteUsersByEmail(
  realm: Pick<RealmRecord, "id" | "settings">,
  user: { role: number; date_joined: number },
  nowSeconds: number,
): boolean {
  const policy = Number(realmSettings(realm).invite_to_realm_policy);
  switch (policy) {
    case 1:
      return user.role <= Role.MEMBER;
    case 2:
      return user.role <= Role.ADMINISTRATOR;
    case 3:
      return user.role <= Role.MEMBER && isFullMember(realm, user, nowSeconds);
    case 4:
      return user.role <= Role.MODERATOR;
    default:
      return false;
  }
}

/**
 * Whether a user may create reusable invitation links (Zulip's
 * `can_create_multiuse_invite_to_realm`): membership of the realm's
 * `create_multiuse_invite_group` (a system group; administrators by default).
 */
export function canCreateMultiuseInvite(realm: Pick<RealmRecord, "id" | "settings">, user: { role: number }): boolean {
  return realmGroupSettingAllows(realm, "create_multiuse_invite_group", user);
}

/**
 * Who may give a role by invitation (Zulip's `check_role_based_permissions`):
 * owners only invite owners; administrators, moderators and owners are
 * invited by administrators.
 * @returns `owner` or `admin` for the right the caller lacks, or null
 */
export function inviteRoleRefusal(invitedAs: number, user: { role: number }): "owner" | "admin" | null {
  if (invitedAs === Role.OWNER && user.role !== Role.OWNER) return "owner";
  if (invitedAs <= Role.MODERATOR && user.role > Role.ADMINISTRATOR) return "admin";
  return null;
}
