/**
 * Organization roles (https://zulip.com/api/get-user: `role`). Lower numbers carry more
 * rights; Zulip compares them numerically.
 */
export const Role = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;

export type RoleValue = (typeof Role)[keyof typeof Role];

export const ROLE_VALUES: readonly number[] = Object.values(Role);

/** Bot types (https://zulip.com/api/get-user: `bot_type`). */
export const BotType = {
  DEFAULT: 1,
  INCOMING_WEBHOOK: 2,
  OUTGOING_WEBHOOK: 3,
  EMBEDDED: 4,
} as const;

interface HasRole {
  role: number;
}

/** Owners and administrators. */
export function isRealmAdmin(user: HasRole): boolean {
  return user.role <= Role.ADMINISTRATOR;
}

export function isRealmOwner(user: HasRole): boolean {
  return user.role === Role.OWNER;
}

/** Moderators and above. */
export function isModeratorOrAbove(user: HasRole): boolean {
  return user.role <= Role.MODERATOR;
}

export function isGuest(user: HasRole): boolean {
  return user.role === Role.GUEST;
}
