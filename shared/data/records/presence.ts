/**
 * A user's presence as stored (Zulip's modern `UserPresence`): one item per
 * user in the realm's presence partition (`keys.presence`), overwritten by
 * pings at most once a minute.
 */
export interface PresenceRecord {
  realm_id: number;
  user_id: number;
  /** UNIX seconds of the last ping from any client (idle or active). */
  last_connected_time: number;
  /** UNIX seconds of the last `active` ping; absent when the user was never active. */
  last_active_time?: number;
  /**
   * When the item last changed, in milliseconds: the `last_update_id` of the
   * modern presence API. Time-based, so no realm-wide counter (a hot item)
   * is needed; readers hand out a value a few seconds behind the newest one
   * they saw, so a write landing late is still fetched (docs/events.md).
   */
  last_update_id: number;
  /** Bots are left out of realm presence (Zulip filters them). */
  is_bot: boolean;
  /** The user's `date_joined` (UNIX seconds): Zulip's stand-in for a missing `last_active_time`. */
  date_joined: number;
}
