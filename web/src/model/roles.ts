/**
 * Organization roles as the wire carries them (`role` of a user,
 * https://zulip.com/api/get-user): lower numbers carry more rights. Typed
 * against the server's role values, so a change there breaks this file's typecheck.
 */
import type { RoleValue } from "../../../shared/wire/user.js";

/** What the role checks read of the client state: the users list and who the reader is. */
export interface RoleContext {
  users: ReadonlyMap<number, { role: number }>;
  me: { user_id: number };
}

export const ROLE = {
  owner: 100,
  administrator: 200,
  moderator: 300,
  member: 400,
  guest: 600,
} as const satisfies Record<string, RoleValue>;

/** The names Zulip's web app gives each role. */
export const ROLE_NAMES: Record<RoleValue, string> = {
  100: "Owner",
  200: "Administrator",
  300: "Moderator",
  400: "Member",
  600: "Guest",
};

/** The reader's role (from the users list); a member when the list does not have them. */
export function myRole(state: RoleContext): number {
  return state.users.get(state.me.user_id)?.role ?? ROLE.member;
}

/** Whether the reader is an organization administrator or owner. */
export function isAdministrator(state: RoleContext): boolean {
  return myRole(state) <= ROLE.administrator;
}

/** Whether the reader is an organization owner. */
export function isOwner(state: RoleContext): boolean {
  return myRole(state) <= ROLE.owner;
}

/**
 * Whether someone is a full member (https://zulip.com/help/restrict-permissions-of-new-members):
 * moderators, administrators and owners always; guests never; a member once
 * `waitingPeriodDays` (`realm_waiting_period_threshold`) have passed since joining.
 * A waiting period of 0 or an unknown join date counts as passed.
 * @param joinedSeconds UNIX seconds of `date_joined`, undefined when unknown
 * @param nowSeconds UNIX seconds
 */
export function isFullMemberAt(role: number, joinedSeconds: number | undefined, waitingPeriodDays: number, nowSeconds: number): boolean {
  if (role <= ROLE.moderator) return true;
  if (role > ROLE.member) return false;
  if (!(waitingPeriodDays > 0) || joinedSeconds === undefined || Number.isNaN(joinedSeconds)) return true;
  return nowSeconds - joinedSeconds >= waitingPeriodDays * 86_400;
}

/**
 * Whether someone passes one of Zulip's integer role policies
 * (`edit_topic_policy`, `delete_own_message_policy`, `invite_to_stream_policy`,
 * `add_custom_emoji_policy`, …; https://zulip.com/api/register-queue):
 * 1 members, 2 administrators, 3 full members, 4 moderators, 5 everyone
 * (guests too); any other value nobody.
 */
export function checkRolePolicy(policy: number, role: number, fullMember: boolean): boolean {
  switch (policy) {
    case 1:
      return role <= ROLE.member;
    case 2:
      return role <= ROLE.administrator;
    case 3:
      return role <= ROLE.member && fullMember;
    case 4:
      return role <= ROLE.moderator;
    case 5:
      return true;
    default:
      return false;
  }
}
