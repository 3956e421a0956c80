import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";
import { effectiveUserSettings } from "../domain/user-settings.js";

/**
 * A user's status as clients see it (OpenAPI `UserStatus`, the values of
 * register's `user_status` and of `GET /users/{user_id}/status`; Zulip's
 * `format_user_status` in `zerver/lib/user_status.py`). Only parts that are
 * set appear: `away` only when true, the text only when non-empty, the three
 * emoji fields only with an emoji.
 */
export interface UserStatusWire {
  away?: true;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/**
 * Whether the user counts as away: the deprecated `away` is the inverse of
 * the user's effective `presence_enabled` setting (feature level 148+).
 */
export function isAway(user: UserRecord, realm: RealmRecord): boolean {
  return effectiveUserSettings(user.settings ?? {}).presence_enabled === false;
}

/** Zulip's `format_user_status`: the wire status of one user (`{}` when nothing is set). */
export function userStatusWire(user: UserRecord, realm: RealmRecord): UserStatusWire {
  const out: UserStatusWire = {};
  if (isAway(user, realm)) out.away = true;
  if (user.status_text) out.status_text = user.status_text;
  if (user.status_emoji_name) {
    out.emoji_name = user.status_emoji_name;
    out.emoji_code = user.status_emoji_code ?? "";
    out.reaction_type = user.status_reaction_type ?? "unicode_emoji";
  }
  return out;
}

/**
 * Register's `user_status` (https://zulip.com/api/register-queue; Zulip's
 * `get_all_users_status_dict`): user ID (as a string) → wire status, for
 * active users who have set a status at some point and whose status is not
 * the default (away, or a text, or an emoji).
 * @param users the realm's users (one Query of the realm's partition, shared with `realm_user`)
 */
export function realmUserStatuses(users: UserRecord[], realm: RealmRecord): Record<string, UserStatusWire> {
  const out: Record<string, UserStatusWire> = {};
  for (const u of users) {
    if (!u.is_active || u.status_timestamp === undefined) continue;
    const status = userStatusWire(u, realm);
    if (Object.keys(status).length > 0) out[String(u.user_id)] = status;
  }
  return out;
}
