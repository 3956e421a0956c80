/**
 * Invitations (https://zulip.com/help/invite-new-users): who may invite and
 * how, what the "Invite users to organization" dialog offers and sends
 * (`POST /invites`, `POST /invites/multiuse`), how a partial failure reads,
 * and the pending invitations of `GET /invites`, kept current by refetching
 * on `invites_changed` (https://zulip.com/api/get-events#invites_changed).
 * Plain logic, no Preact; the server decides again and its refusal is shown.
 */
import type { RoleValue } from "../../../shared/wire/user.js";
import { ApiError, type ParamValue } from "../api/client.js";
import { inGroupSetting, isFullMember, type GroupSettingValue, type Reader } from "./channel-permissions.js";
import { myRole, ROLE } from "./roles.js";
import type { ChatState } from "./state.js";

/** The event types invitations need; store.ts registers for them. */
export const INVITES_EVENT_TYPES = ["invites_changed"];

/** One pending invitation as `GET /invites` lists it (OpenAPI `Invite`; times in UNIX seconds). */
export interface Invite {
  id: number;
  invited_by_user_id: number;
  invited: number;
  /** null: never expires. */
  expiry_date: number | null;
  invited_as: number;
  /** Email invitations only. */
  email?: string;
  notify_referrer_on_join?: boolean;
  /** Reusable links only. */
  link_url?: string;
  is_multiuse: boolean;
}

/** The expiry choices of Zulip's dialog, in minutes (`invite_expires_in_minutes`; null never expires). */
export const EXPIRY_CHOICES: readonly { label: string; minutes: number | null }[] = [
  { label: "1 day", minutes: 24 * 60 },
  { label: "10 days", minutes: 10 * 24 * 60 },
  { label: "30 days", minutes: 30 * 24 * 60 },
  { label: "Never expires", minutes: null },
];

/** The server's default (Zulip's `INVITATION_LINK_VALIDITY_DAYS`, 10 days), preselected. */
export const DEFAULT_EXPIRY_MINUTES = 10 * 24 * 60;

/** The longest list of addresses one `POST /invites` sends (the field is bounded too). */
export const MAX_INVITEES = 100;

/** The reader as the permission checks take them. */
export function inviterOf(state: ChatState, nowMs = Date.now()): Reader {
  const role = myRole(state);
  const me = state.users.get(state.me.user_id);
  return { userId: state.me.user_id, role, fullMember: isFullMember(role, me?.date_joined, state.realmSettings, nowMs) };
}

/**
 * Whether the reader may send email invitations: `realm_invite_to_realm_policy`
 * (1 members, 2 administrators, 3 full members, 4 moderators, 6 nobody;
 * Zulip's default 1); guests never.
 */
export function canInviteByEmail(state: ChatState, nowMs = Date.now()): boolean {
  const r = inviterOf(state, nowMs);
  if (r.role >= ROLE.guest) return false;
  const policy = Number(state.realmSettings.realm_invite_to_realm_policy ?? 1);
  switch (policy) {
    case 1:
      return r.role <= ROLE.member;
    case 2:
      return r.role <= ROLE.administrator;
    case 3:
      return r.role <= ROLE.member && r.fullMember;
    case 4:
      return r.role <= ROLE.moderator;
    default:
      return false;
  }
}

/**
 * Whether the reader may create reusable invitation links: a member of the
 * group `realm_create_multiuse_invite_group` names (Zulip's default:
 * administrators), read from register's user groups.
 */
export function canCreateMultiuseInvite(state: ChatState, nowMs = Date.now()): boolean {
  const value = state.realmSettings.realm_create_multiuse_invite_group as GroupSettingValue | undefined;
  const r = inviterOf(state, nowMs);
  if (value === undefined) return r.role <= ROLE.administrator;
  return inGroupSetting(value, r, [...state.userGroups.values()]);
}

/** Whether the reader may invite at all (the menu item and the sidebar link show). */
export function canInvite(state: ChatState, nowMs = Date.now()): boolean {
  return canInviteByEmail(state, nowMs) || canCreateMultiuseInvite(state, nowMs);
}

/**
 * Whether the reader sees organization settings › Invitations: administrators
 * (every invitation) and whoever may invite (their own), as `GET /invites` answers.
 */
export function maySeeInvites(state: ChatState, nowMs = Date.now()): boolean {
  return myRole(state) <= ROLE.administrator || canInvite(state, nowMs);
}

/**
 * The roles the reader may invite as (Zulip's `check_role_based_permissions`):
 * owners any role, administrators up to administrator, everyone else member or guest.
 * Most rights first, as Zulip's list.
 */
export function invitableRoles(role: number): RoleValue[] {
  if (role <= ROLE.owner) return [ROLE.owner, ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest];
  if (role <= ROLE.administrator) return [ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest];
  return [ROLE.member, ROLE.guest];
}

/**
 * The addresses typed in the dialog: split at commas and line breaks, a
 * `Name <address>` form reduced to the address, blanks dropped, each once
 * (case-insensitive), in the order typed.
 */
export function parseInviteeEmails(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(/[,\n]/)) {
    const named = /<([^<>]*)>/.exec(part);
    const email = (named ? named[1]! : part).trim();
    if (email === "" || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push(email);
  }
  return out;
}

/** A stream the dialog offers; `isDefault` for the organization's default channels. */
export interface InviteStream {
  stream_id: number;
  name: string;
  isDefault: boolean;
}

/** The IDs of the organization's default channels (register's `realm_default_streams`, objects or IDs). */
export function defaultStreamIds(state: ChatState): Set<number> {
  const raw = (state.realmSettings.realm_default_streams as (number | { stream_id: number })[] | undefined) ?? [];
  return new Set(raw.map((s) => (typeof s === "number" ? s : s.stream_id)));
}

/**
 * The streams the reader may have invitees join, by name: those they are
 * subscribed to and, unless a guest, every public one they can see (the
 * streams `access_stream_by_id` lets them reach).
 */
export function inviteStreams(state: ChatState): InviteStream[] {
  const defaults = defaultStreamIds(state);
  const guest = myRole(state) >= ROLE.guest;
  const out = new Map<number, InviteStream>();
  for (const s of state.subscriptions.values()) out.set(s.stream_id, { stream_id: s.stream_id, name: s.name, isDefault: defaults.has(s.stream_id) });
  if (!guest) {
    for (const s of state.streams.values()) {
      if (!s.invite_only && !out.has(s.stream_id)) out.set(s.stream_id, { stream_id: s.stream_id, name: s.name, isDefault: defaults.has(s.stream_id) });
    }
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** What the dialog's form holds, shared by both modes. */
export interface InviteChoices {
  expiresInMinutes: number | null;
  inviteAs: number;
  /** Streams chosen beyond the defaults (or all of them, when the defaults are not included). */
  streamIds: number[];
  includeDefaults: boolean;
}

/**
 * The parameters of `POST /invites/multiuse` (https://zulip.com/api/create-invite-link);
 * `POST /invites` takes these plus `invitee_emails` and `notify_referrer_on_join`.
 * With the defaults included, the default streams are not repeated in `stream_ids`.
 */
export function inviteParams(c: InviteChoices, defaults: ReadonlySet<number>): Record<string, ParamValue> {
  const ids = c.includeDefaults ? c.streamIds.filter((id) => !defaults.has(id)) : c.streamIds;
  return {
    invite_expires_in_minutes: c.expiresInMinutes,
    invite_as: c.inviteAs,
    stream_ids: [...new Set(ids)].sort((a, b) => a - b),
    include_realm_default_subscriptions: c.includeDefaults,
  };
}

/** One address the server skipped (`errors` of `INVITATION_FAILED`). */
export interface SkippedAddress {
  email: string;
  reason: string;
  /** The address belongs to a deactivated user of this organization. */
  deactivated: boolean;
}

/** A refused or partly refused `POST /invites`: the server's message, the skipped addresses, whether any invitation went out. */
export interface InviteFailure {
  message: string;
  skipped: SkippedAddress[];
  sentInvitations: boolean;
}

/**
 * Reads a failed `POST /invites`: Zulip's `INVITATION_FAILED` carries
 * `errors` (`[email, reason, deactivated]` each) and `sent_invitations`; any
 * other refusal has only its message (and nothing was sent).
 */
export function inviteFailure(err: unknown, message: string): InviteFailure {
  if (!(err instanceof ApiError)) return { message, skipped: [], sentInvitations: false };
  const raw = Array.isArray(err.body.errors) ? (err.body.errors as unknown[]) : [];
  const skipped = raw
    .filter((e): e is unknown[] => Array.isArray(e) && typeof e[0] === "string")
    .map((e) => ({ email: String(e[0]), reason: String(e[1] ?? ""), deactivated: e[2] === true }));
  return { message, skipped, sentInvitations: err.body.sent_invitations === true };
}

/** The addresses of a request that were invited, given those the server skipped. */
export function invitedAddresses(sent: readonly string[], skipped: readonly SkippedAddress[]): string[] {
  const out = new Set(skipped.map((s) => s.email.toLowerCase()));
  return sent.filter((e) => !out.has(e.toLowerCase()));
}

/** Pending invitations newest first (ties by ID, reusable links after email ones). */
export function sortInvites(invites: readonly Invite[]): Invite[] {
  return [...invites].sort((a, b) => b.invited - a.invited || Number(a.is_multiuse) - Number(b.is_multiuse) || b.id - a.id);
}

/** The API path of an invitation (`/invites/3`, `/invites/multiuse/3`), for revoking it. */
export function invitePath(invite: Pick<Invite, "id" | "is_multiuse">): string {
  return invite.is_multiuse ? `/invites/multiuse/${invite.id}` : `/invites/${invite.id}`;
}

/**
 * Whether the reader may resend or revoke an invitation (Zulip's checks): their
 * own always; another's as an administrator, except one inviting an owner,
 * which only owners may touch.
 */
export function mayManageInvite(state: ChatState, invite: Pick<Invite, "invited_by_user_id" | "invited_as">): boolean {
  const role = myRole(state);
  if (invite.invited_as === ROLE.owner && role > ROLE.owner) return false;
  return invite.invited_by_user_id === state.me.user_id || role <= ROLE.administrator;
}
