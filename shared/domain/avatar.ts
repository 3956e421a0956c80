import { createHash } from "node:crypto";
import type { UserRecord } from "../data/records/user.js";

/**
 * The gravatar URL of an email address (MD5 of the trimmed, lower-cased
 * address, as gravatar defines it), with Zulip's identicon fallback and a
 * cache-busting `version`.
 */
export function gravatarUrl(email: string, avatarVersion: number): string {
  return `${gravatarBase(email)}&version=${avatarVersion}`;
}

function gravatarBase(key: string): string {
  const hash = createHash("md5").update(key.trim().toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

/**
 * An organization's icon while none is uploaded (`realm_icon_source` "G"):
 * Zulip's `get_realm_icon_url`, the gravatar identicon of the realm's
 * subdomain (`string_id`). Served by gravatar, so clients always get an image.
 */
export function realmIconUrl(realm: { string_id: string }): string {
  return gravatarBase(realm.string_id);
}

/**
 * A user's `avatar_url` as Zulip serves it: null when the client computes
 * gravatars itself (`client_gravatar`), the avatar is a gravatar, and the
 * client can see the email the gravatar is keyed on.
 */
export function avatarUrlFor(user: UserRecord, opts: { clientGravatar: boolean; emailVisible: boolean }): string | null {
  if (opts.clientGravatar && opts.emailVisible && user.avatar_source === "G") return null;
  return gravatarUrl(user.delivery_email, user.avatar_version);
}
