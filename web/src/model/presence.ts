/**
 * People's presence in the client state (https://zulip.com/api/get-presence):
 * from register's `presences` and the answers of the reader's own pings.
 */
import type { ChatState, Presence } from "./state.js";

/** Register's `presences` (and a ping's answer) as sent: modern or legacy entries by user ID. */
export type RegisterPresence = Record<string, Presence | { aggregated?: { status: string; timestamp: number } }>;

/** Presence from register's `presences` (modern `{active_timestamp, idle_timestamp}` or legacy `aggregated`), keyed by user ID. */
export function presenceFromRegister(raw: RegisterPresence): Map<number, Presence> {
  const out = new Map<number, Presence>();
  for (const [key, value] of Object.entries(raw)) {
    const id = Number(key);
    if (!Number.isInteger(id)) continue;
    if ("active_timestamp" in value) out.set(id, { active_timestamp: value.active_timestamp, idle_timestamp: value.idle_timestamp });
    else if (value.aggregated) {
      const t = value.aggregated.timestamp;
      out.set(id, { active_timestamp: value.aggregated.status === "active" ? t : 0, idle_timestamp: t });
    }
  }
  return out;
}

/**
 * Merges the organization's presence as `POST /users/me/presence` answers it
 * with `slim_presence` (https://zulip.com/api/update-presence): `presences`
 * keyed by user ID, each `{active_timestamp, idle_timestamp}` in UNIX seconds
 * (or the legacy `aggregated` form). A timestamp never moves back.
 */
export function applyPresences(state: ChatState, raw: Record<string, unknown>): ChatState {
  const fresh = presenceFromRegister(raw as RegisterPresence);
  if (fresh.size === 0) return state;
  const presence = new Map(state.presence);
  for (const [id, p] of fresh) {
    const old = presence.get(id);
    presence.set(id, {
      active_timestamp: Math.max(p.active_timestamp, old?.active_timestamp ?? 0),
      idle_timestamp: Math.max(p.idle_timestamp, old?.idle_timestamp ?? 0),
    });
  }
  return { ...state, presence };
}
