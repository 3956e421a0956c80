/**
 * A user or bot account as stored (one item in its realm's partition).
 * Wire shapes are built from it by `shared/wire/user.ts`.
 */
export interface UserRecord {
  realm_id: number;
  user_id: number;
  /** The real address (Zulip's `delivery_email`); the API `email` may be a fake one. */
  delivery_email: string;
  full_name: string;
  /** See `shared/domain/roles.ts`. */
  role: number;
  is_active: boolean;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_billing_admin: boolean;
  /** `G` gravatar, `U` uploaded. */
  avatar_source: "G" | "U";
  avatar_version: number;
  timezone: string;
  /** UNIX seconds. */
  date_joined: number;
  /** The 32-character API key (shown to its owner by `POST /fetch_api_key`). */
  api_key: string;
  /** scrypt hash (see `shared/auth/password.ts`), or null when password login is off for the account. */
  password_hash: string | null;
  /** Personal settings that differ from the realm's defaults (`shared/domain/user-settings.ts`). */
  settings: Record<string, unknown>;
  /** Custom profile field ID → value. */
  profile_data: Record<string, { value: string; rendered_value?: string }>;
  /**
   * A system bot (Zulip's cross-realm bots, e.g. Notification Bot): stored
   * in the realm's partition but not one of its users. Absent on records
   * written before the field existed; use {@link isSystemBot}.
   */
  is_system_bot?: boolean;
  /**
   * The user's status (Zulip's `UserStatus`, https://zulip.com/api/update-status),
   * one field per part so that a partial update sets only its own fields.
   * `status_timestamp` (UNIX seconds of the last status update) is present
   * once the user has set a status: only such users appear in register's
   * `user_status`. Empty strings mean "no text" / "no emoji".
   */
  status_text?: string;
  status_emoji_name?: string;
  status_emoji_code?: string;
  /** `unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`. */
  status_reaction_type?: string;
  status_timestamp?: number;
  /** Names of the onboarding steps the user has marked as seen (https://zulip.com/api/register-queue, `onboarding_steps`). */
  onboarding_steps_seen?: Set<string>;
  /**
   * Who muted this user (Zulip's `get_muting_users`), kept beside the
   * `MutedUser` items so that sending reads no extra item: a number set,
   * absent when nobody mutes the user.
   */
  muted_by_ids?: Set<number>;
  /**
   * Bots: UNIX seconds of the last Notification Bot message telling the
   * owner about a misconfigured integration (Zulip's `last_reminder`, which
   * bots use for this), so that owners hear at most once per five minutes.
   */
  last_reminder?: number;
  /** Bots: the stream ID of Zulip's `default_sending_stream`, null or absent for none. */
  default_sending_stream_id?: number | null;
  /** Bots: the stream ID of Zulip's `default_events_register_stream`, null or absent for none. */
  default_events_register_stream_id?: number | null;
  /** Bots: Zulip's `default_all_public_streams` (absent means false). */
  default_all_public_streams?: boolean;
  /**
   * The SHA-256 hex of the key of the user's latest email change link
   * (`email_change` confirmation), absent when none is pending: starting a
   * new change replaces it, so an older link no longer confirms (Zulip
   * revokes earlier `EmailChangeStatus` rows), and confirming removes it.
   */
  email_change_key_hash?: string;
}
