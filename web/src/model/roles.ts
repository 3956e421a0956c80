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
