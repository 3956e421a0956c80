/**
 * An invitation to join a realm (Zulip's `PreregistrationUser` with a
 * referrer, for an email invitation, and `MultiuseInvite`, for a reusable
 * link), one item in the realm's invitations partition (`keys.invite`).
 * Its link is a confirmation (`ConfirmationRecord`, kind `invitation` or
 * `multiuse_invite`) stored under the SHA-256 of its key; the invite holds
 * that hash so revoking deletes the link too.
 */
export interface InviteRecord {
  realm_id: number;
  /** From the `invite` counter (email invitations) or the `multiuse_invite` counter (links). */
  id: number;
  /** true: a reusable invitation link; false: an email invitation. */
  is_multiuse: boolean;
  /** The user who created it (`invited_by_user_id`). */
  referred_by: number;
  /** The role the new user gets (Zulip's `invited_as`: 100, 200, 300, 400, 600). */
  invited_as: number;
  /** UNIX seconds of creation (`invited`). */
  invited_at: number;
  /** UNIX seconds after which the link is refused; null: never expires. */
  expires_at: number | null;
  /** Email invitations: the invited address, as given. */
  email?: string;
  /** Streams the new user is subscribed to, as checked at creation. */
  stream_ids: number[];
  /** Whether the new user also joins the realm's default streams. */
  include_realm_default_subscriptions: boolean;
  /** Whether the referrer gets a direct message from the Notification Bot when someone signs up with it. */
  notify_referrer_on_join: boolean;
  /** SHA-256 hex of the link's confirmation key (the confirmation item's key). */
  key_hash: string;
  /**
   * Reusable links only: the key itself, since `GET /invites` shows the
   * link (`link_url`) to those who manage it, as Zulip does. Email
   * invitations keep only the hash: their link lives in the mail.
   */
  link_key?: string;
  /** UNIX seconds of revocation: a revoked link is kept a week (TTL) so that revoking it again says so. */
  revoked_at?: number;
}
