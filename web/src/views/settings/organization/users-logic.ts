/**
 * Who may change whose role and who may deactivate whom
 * (https://zulip.com/help/user-roles, https://zulip.com/help/deactivate-or-reactivate-a-user):
 * administrators manage users, but only owners make owners or change an
 * owner's role or deactivate an owner. The server decides the rest (the last
 * owner keeps the role) and its message is shown.
 */
import { checkRolePolicy, isFullMemberAt, ROLE, ROLE_NAMES } from "../../../model/roles.js";

/** The roles the reader may give someone, as [value, name]: every role for an owner, all but Owner for an administrator. */
export function assignableRoles(readerRole: number): [number, string][] {
  const roles = [ROLE.owner, ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest] as const;
  return roles.filter((r) => readerRole <= ROLE.owner || r !== ROLE.owner).map((r) => [r, ROLE_NAMES[r]]);
}

/** Whether the reader (by role) may change the role of, or deactivate, a user of `targetRole`. */
export function canManageUser(readerRole: number, targetRole: number): boolean {
  if (readerRole > ROLE.administrator) return false;
  return targetRole !== ROLE.owner || readerRole <= ROLE.owner;
}

/** The reader as policy checks need them: role and the day they joined. */
export interface PolicyReader {
  role: number;
  /** ISO date of joining (`date_joined`); a full member has been one for the waiting period. */
  date_joined?: string;
}

/**
 * Whether Zulip's common policy value lets the reader act
 * (https://zulip.com/help/restrict-permissions-of-new-members): 1 members,
 * 2 admins, 3 full members (members past `waitingDays` since joining,
 * moderators and admins), 4 moderators; guests never.
 * @param nowMs the clock in milliseconds, to count the waiting period
 */
export function policyAllows(policy: number, reader: PolicyReader, waitingDays: number, nowMs: number): boolean {
  const joined = reader.date_joined ? Date.parse(reader.date_joined) / 1000 : nowMs / 1000;
  return checkRolePolicy(policy, reader.role, isFullMemberAt(reader.role, joined, waitingDays, nowMs / 1000));
}
