import type { PresenceRecord } from "../data/records/presence.js";

/**
 * Presence wire formats (Zulip's `zerver/lib/presence.py`, feature level
 * 178+: one pseudo-client `website`, `pushable` always false).
 */

/** Seconds after the last active ping during which the legacy format still says `active` (Zulip: 2 minutes). */
const LEGACY_ACTIVE_WINDOW_SECONDS = 120;

/** Offset within which a presence event reports `active` (Zulip's PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS). */
const LEGACY_EVENT_ACTIVE_OFFSET_SECONDS = 70;

/** The user's last active time, defaulting to `date_joined` as Zulip does for never-active users. */
function lastActive(p: PresenceRecord): number {
  return p.last_active_time ?? p.date_joined ?? 0;
}

/** The modern format (OpenAPI `ModernPresenceFormat`): UNIX seconds. */
export type ModernPresence = { active_timestamp: number; idle_timestamp: number };

/** The one pseudo-client of the legacy format (OpenAPI `LegacyPresenceFormat`); `timestamp` in UNIX seconds. */
export type LegacyPresenceClient = { client: "website"; status: "active" | "idle"; timestamp: number; pushable: false };

/** The legacy format (OpenAPI `LegacyPresenceFormat`): the pseudo-client and the aggregate over clients. */
export type LegacyPresence = {
  aggregated: { client: "website"; status: "active" | "idle"; timestamp: number };
  website: LegacyPresenceClient;
};

/** The modern format: `{active_timestamp, idle_timestamp}` in UNIX seconds (OpenAPI `ModernPresenceFormat`). */
export function modernPresence(p: PresenceRecord): ModernPresence {
  return { active_timestamp: lastActive(p), idle_timestamp: p.last_connected_time };
}

/**
 * The legacy format: `{website: {client, status, timestamp, pushable}, aggregated: {client, status, timestamp}}`
 * (OpenAPI `LegacyPresenceFormat`); `active` while the last active ping is under two minutes old.
 * @param nowSeconds the current time in UNIX seconds
 */
export function legacyPresence(p: PresenceRecord, nowSeconds: number): LegacyPresence {
  const active = nowSeconds - lastActive(p) <= LEGACY_ACTIVE_WINDOW_SECONDS;
  const status = active ? "active" : "idle";
  const timestamp = active ? lastActive(p) : p.last_connected_time;
  return {
    aggregated: { client: "website", status, timestamp },
    website: { client: "website", status, timestamp, pushable: false },
  };
}

/**
 * The `presence` of a `presence` event: `{website: {client, status, timestamp, pushable}}`
 * (Zulip's `format_legacy_presence_dict`, for a record just written).
 */
export function presenceEventValue(p: PresenceRecord): { website: LegacyPresenceClient } {
  const active = lastActive(p) + LEGACY_EVENT_ACTIVE_OFFSET_SECONDS >= p.last_connected_time;
  return {
    website: {
      client: "website",
      status: active ? "active" : "idle",
      timestamp: active ? lastActive(p) : p.last_connected_time,
      pushable: false,
    },
  };
}
