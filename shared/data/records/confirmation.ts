/**
 * The kinds of confirmation link (Zulip's `Confirmation.type`; the record's `kind`): what the key
 * in a mailed or shared link stands for.
 */
export type ConfirmationType =
  /** An email invitation (`/accounts/do_confirm/<key>`); `object_id` is the invite's ID. */
  | "invitation"
  /** A reusable invitation link (`/join/<key>/`); `object_id` is the multiuse invite's ID. */
  | "multiuse_invite"
  /** Sign-up by an address the organization accepts, confirmed by mail; `email` is that address. */
  | "user_registration"
  /** A password reset link; `object_id` is the user's ID. */
  | "password_reset"
  /** A change of a user's email address, confirmed from the new address; `object_id` is the user's ID. */
  | "email_change";

/**
 * A confirmation link's key, stored under the SHA-256 of the key (Zulip's
 * `Confirmation`): what it confirms, for whom, until when, and whether it
 * was used. Keys are never stored, so reading the table yields no live link.
 */
export interface ConfirmationRecord {
  realm_id: number;
  kind: ConfirmationType;
  /** The invite's, multiuse invite's or user's ID (0 when the type has none). */
  object_id: number;
  /** The address the link was mailed to, when one was. */
  email?: string;
  /** UNIX seconds of creation. */
  created_at: number;
  /** UNIX seconds after which the link is refused as expired; `null`: never expires. */
  expires_at: number | null;
  /** UNIX seconds of its (single) use; absent until used. Multiuse links are never marked. */
  used_at?: number;
  /**
   * A fingerprint of what the link was issued against, when a later change
   * must void it: for `password_reset`, of the account's password hash and
   * address (Django's reset token is a hash over them, so any password
   * change voids every earlier link).
   */
  state?: string;
}
