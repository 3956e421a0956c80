import { createHash } from "node:crypto";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";
import { avatarObjectKeys } from "../storage/object-keys.js";
import { userAvatarsPath } from "./realm-emoji.js";

/**
 * The gravatar URL of an email address (MD5 of the trimmed, lower-cased
 * address, as gravatar defines it), with Zulip's identicon fallback and a
 * cache-busting `version`; `medium` asks gravatar for 500 pixels (Zulip's
 * `get_gravatar_url`).
 */
export function gravatarUrl(email: string, avatarVersion: number, medium = false): string {
  return `${gravatarBase(email)}${medium ? `&s=${MEDIUM_AVATAR_SIZE}` : ""}&version=${avatarVersion}`;
}

function gravatarBase(key: string): string {
  const hash = createHash("md5").update(key.trim().toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

/**
 * An organization's `realm_icon_url` (Zulip's `get_realm_icon_url`): the
 * uploaded icon's path with `?version=` when `icon_source` is `U`; else the
 * gravatar identicon of the realm's subdomain (`string_id`), so clients
 * always get an image.
 */
export function realmIconUrl(realm: Pick<RealmRecord, "id" | "string_id" | "icon_source" | "icon_version">): string {
  if (realm.icon_source === "U") {
    const version = realm.icon_version ?? 1;
    return `${userAvatarsPath(avatarObjectKeys.realmImage(realm.id, "icon", version))}?version=${version}`;
  }
  return gravatarBase(realm.string_id);
}

/**
 * An organization's day or night wide logo (Zulip's `get_realm_logo_url`):
 * the uploaded image's path with `?version=`, or Zulip's default logo.
 * @param baseUrl the organization's URL (the default logo is a static file there)
 */
export function realmLogoUrl(realm: Pick<RealmRecord, "id" | "logo_source" | "logo_version" | "night_logo_source" | "night_logo_version">, night: boolean, baseUrl: string): string {
  const source = night ? realm.night_logo_source : realm.logo_source;
  if (source === "U") {
    const version = (night ? realm.night_logo_version : realm.logo_version) ?? 1;
    const key = avatarObjectKeys.realmImage(realm.id, night ? "night_logo" : "logo", version);
    return `${userAvatarsPath(key)}?version=${version}`;
  }
  return `${baseUrl}/static/images/logo/zulip-org-logo.svg?version=0`;
}

/** Zulip's `MEDIUM_AVATAR_SIZE`: the medium avatar's width and height in pixels. */
export const MEDIUM_AVATAR_SIZE = 500;

/** Zulip's `DEFAULT_AVATAR_SIZE`: the avatar's width and height in pixels. */
export const DEFAULT_AVATAR_SIZE = 100;

/**
 * The path of an uploaded avatar (Zulip's `/user_avatars/...` at the site
 * root, see `userAvatarsPath`) with the cache-busting `version`.
 */
function uploadedAvatarUrl(user: Pick<UserRecord, "realm_id" | "user_id" | "avatar_version">, medium: boolean): string {
  const key = avatarObjectKeys.avatar(user.realm_id, user.user_id, user.avatar_version, medium);
  return `${userAvatarsPath(key)}?version=${user.avatar_version}`;
}

/**
 * A user's `avatar_url` as Zulip serves it (Zulip's `avatar_url`): the
 * uploaded image's path with `?version=` when `avatar_source` is `U`; else
 * null when the client computes gravatars itself (`client_gravatar`) and can
 * see the email the gravatar is keyed on; else the gravatar URL.
 */
export function avatarUrlFor(user: UserRecord, opts: { clientGravatar: boolean; emailVisible: boolean }): string | null {
  if (user.avatar_source === "U") return uploadedAvatarUrl(user, false);
  if (opts.clientGravatar && opts.emailVisible) return null;
  return gravatarUrl(user.delivery_email, user.avatar_version);
}

/**
 * A user's medium avatar (Zulip's `avatar_url(user, medium=True)`): the
 * 500×500 upload, or the gravatar at 500 pixels.
 */
export function mediumAvatarUrlFor(user: UserRecord): string {
  if (user.avatar_source === "U") return uploadedAvatarUrl(user, true);
  return gravatarUrl(user.delivery_email, user.avatar_version, true);
}
