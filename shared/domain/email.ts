import type { Config } from "../config.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import { isModeratorOrAbove, isRealmAdmin } from "./roles.js";

/**
 * Zulip's per-user `email_address_visibility` setting (feature level 163):
 * who may see a user's real (delivery) email.
 */
export const EmailVisibility = {
  EVERYONE: 1,
  MEMBERS: 2,
  ADMINS: 3,
  NOBODY: 4,
  MODERATORS: 5,
} as const;

/**
 * The user's effective email visibility (their setting, copied from the
 * organization's default at creation, else everyone). Bots are always visible to everyone, as in Zulip
 * (the OpenAPI `delivery_email` notes), so their API email is their real one.
 */
export function emailVisibilityOf(user: UserRecord, realm: RealmRecord): number {
  if (user.is_bot) return EmailVisibility.EVERYONE;
  const own = user.settings?.email_address_visibility;
  return typeof own === "number" ? own : EmailVisibility.EVERYONE;
}

/** The realm's host, e.g. `acme.chat.example.com`, or the root domain for the default organization. */
export function realmHost(realm: Pick<RealmRecord, "string_id">, config: Pick<Config, "ROOT_DOMAIN">): string {
  return realm.string_id ? `${realm.string_id}.${config.ROOT_DOMAIN}` : config.ROOT_DOMAIN;
}

/** The realm's base URL (Zulip's `realm_uri`/`realm_url`), without a trailing slash. */
export function realmUrl(realm: Pick<RealmRecord, "string_id">, config: Pick<Config, "ROOT_DOMAIN" | "URL_SCHEME">): string {
  return `${config.URL_SCHEME}://${realmHost(realm, config)}`;
}

/**
 * The user's API email (Zulip's `email`): the real address when it is
 * visible to everyone, else a stable fake `user<id>@<realm host without port>`
 * that still works for authentication and addressing.
 */
export function apiEmail(user: UserRecord, realm: RealmRecord, config: Pick<Config, "ROOT_DOMAIN">): string {
  if (emailVisibilityOf(user, realm) === EmailVisibility.EVERYONE) return user.delivery_email;
  return `user${user.user_id}@${realmHost(realm, config).replace(/:\d+$/, "")}`;
}

/**
 * Whether `viewer` may see `target`'s real email under the target's visibility setting.
 */
export function canSeeDeliveryEmail(viewer: UserRecord, target: UserRecord, realm: RealmRecord): boolean {
  if (viewer.user_id === target.user_id) return true;
  switch (emailVisibilityOf(target, realm)) {
    case EmailVisibility.EVERYONE:
      return true;
    case EmailVisibility.MEMBERS:
      return viewer.role <= 400;
    case EmailVisibility.MODERATORS:
      return isModeratorOrAbove(viewer);
    case EmailVisibility.ADMINS:
      return isRealmAdmin(viewer);
    default:
      return false;
  }
}

/** Longest email address accepted (RFC 5321's path limit, Django's `EmailValidator`). */
export const MAX_EMAIL_LENGTH = 254;

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * Whether a string is an email address Zulip's sign-up form would accept
 * (the shape Django's `EmailValidator` checks): a dot-atom local part, `@`,
 * and a domain of at least two labels whose last one is not numeric, or
 * `localhost`. No DNS lookup.
 */
export function isValidEmailAddress(email: string): boolean {
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH) return false;
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  if (domain.toLowerCase() === "localhost") return true;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((l) => DOMAIN_LABEL.test(l))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

/**
 * Whether a string is a local part {@link isValidEmailAddress} accepts
 * (at most 64 characters, a dot-atom). Bot emails are checked this way:
 * their domain is the organization's own host, which may be an IP address
 * in development.
 */
export function isValidEmailLocalPart(local: string): boolean {
  return local.length > 0 && local.length <= 64 && LOCAL_PART.test(local);
}
