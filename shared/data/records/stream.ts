/**
 * A stream (channel) as stored, one item in its realm's partition; its
 * lower-cased name is claimed by a unique-name item (`keys.streamByName`).
 * Wire shapes come from `shared/wire/stream.ts`.
 */
export interface StreamRecord {
  realm_id: number;
  stream_id: number;
  name: string;
  /** Markdown source. */
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  /** 1 everyone, 2 administrators, 3 full members, 4 moderators. */
  stream_post_policy: number;
  /** null: the realm's setting; -1: forever. */
  message_retention_days: number | null;
  /** UNIX seconds. */
  date_created: number;
  first_message_id: number | null;
  /**
   * The secret part of the stream's incoming-email address (Zulip's
   * `Stream.email_token`: 32 hex digits), set the first time the address
   * is asked for (`ensureStreamEmailToken`); absent until then.
   */
  email_token?: string;
  /** The stream's recipient ID (messages' `recipient_id`). */
  recipient_id: number;
  creator_id: number | null;
  /** Archived streams are kept with `deactivated: true` and are invisible. */
  deactivated: boolean;
  /** Whether new users are subscribed to it (default streams). */
  is_default: boolean;
  /** ID of the user group whose members may unsubscribe others (Zulip's default: administrators). */
  can_remove_subscribers_group: number;
}
