import type { Deps } from "../../deps.js";
import { listRealmPresence } from "../../data/presence.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { listRealmMembers } from "../../data/users.js";
import { legacyPresence, modernPresence, type LegacyPresence, type ModernPresence } from "../../wire/presence.js";
import { apiEmail } from "../../domain/email.js";
import { realmSettings } from "../../domain/realm-settings.js";

/** Presence older than this is left out (Zulip: two weeks). */
export const PRESENCE_HISTORY_SECONDS = 14 * 86_400;

/**
 * How far behind the newest update ID a reader's `presence_last_update_id`
 * stays, in milliseconds: update IDs are write times, and a write may
 * become visible slightly after a later one; the next poll then fetches it
 * again rather than never (presence data is idempotent).
 */
export const PRESENCE_UPDATE_ID_LAG_MS = 5000;

/** Which presence data {@link fetchRealmPresence} returns, and in which format. */
export interface RealmPresenceOptions {
  /** `modern`: keyed by user ID, `{active_timestamp, idle_timestamp}`; `legacy`: keyed by API email. */
  format: "modern" | "legacy";
  /** Only presence changed after this update ID (the modern `last_update_id` protocol); -1 or undefined for all. */
  lastUpdateId?: number;
  /** The realm's users when the caller already has them (saves a Query). */
  users?: UserRecord[];
}

/**
 * The organization's presence data as `POST /users/me/presence`,
 * `GET /realm/presence` (https://zulip.com/api/get-presence) and
 * `POST /register` (`presence`) return it:
 * `presences`, `server_timestamp` (UNIX seconds, fractional) and
 * `presence_last_update_id`. Active humans seen within
 * {@link PRESENCE_HISTORY_SECONDS}; nothing when the organization disabled
 * presence. One Query of the realm's presence partition, plus the realm's
 * users for the legacy (email-keyed) format.
 */
export async function fetchRealmPresence(
  deps: Deps,
  realm: RealmRecord,
  opts: RealmPresenceOptions,
): Promise<{
  presences: Record<string, ModernPresence | LegacyPresence>;
  server_timestamp: number;
  presence_last_update_id: number;
}> {
  const nowMs = deps.clock.now();
  const since = opts.lastUpdateId !== undefined && opts.lastUpdateId >= 0 ? opts.lastUpdateId : undefined;
  const fallbackId = opts.lastUpdateId ?? -1;
  if (realmSettings(realm).presence_disabled === true) {
    return { presences: {}, server_timestamp: nowMs / 1000, presence_last_update_id: fallbackId };
  }
  const [rows, users] = await Promise.all([
    listRealmPresence(deps, realm.id, since),
    opts.users ?? (opts.format === "legacy" ? listRealmMembers(deps, realm.id) : Promise.resolve(undefined)),
  ]);
  const byId = users ? new Map(users.map((u) => [u.user_id, u])) : undefined;
  const nowSeconds = Math.floor(nowMs / 1000);
  const presences: Record<string, ModernPresence | LegacyPresence> = {};
  let maxSeen = -1;
  for (const row of rows) {
    maxSeen = Math.max(maxSeen, row.last_update_id);
    if (row.is_bot || row.last_connected_time < nowSeconds - PRESENCE_HISTORY_SECONDS) continue;
    const user = byId?.get(row.user_id);
    if (byId && (!user || !user.is_active || user.is_bot)) continue;
    if (opts.format === "modern") presences[String(row.user_id)] = modernPresence(row);
    else presences[apiEmail(user!, realm, deps.config)] = legacyPresence(row, nowSeconds);
  }
  const lastUpdateId =
    maxSeen < 0 ? fallbackId : Math.max(fallbackId, Math.min(maxSeen, nowMs - PRESENCE_UPDATE_ID_LAG_MS));
  return { presences, server_timestamp: nowMs / 1000, presence_last_update_id: lastUpdateId };
}
