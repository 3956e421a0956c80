/**
 * One user muted by another (Zulip's `MutedUser`): one item per (muter,
 * muted user) in the muter's partition (`keys.mutedUser`). The muted user's
 * record carries the reverse set (`UserRecord.muted_by_ids`).
 */
export interface MutedUserRecord {
  user_id: number;
  muted_user_id: number;
  /** UNIX seconds of the mute. */
  timestamp: number;
}
