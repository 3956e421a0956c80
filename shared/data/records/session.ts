/**
 * A browser login (Django's `Session` as Zulip's web app uses it): who is
 * logged in, the token a page must echo in `X-CSRFToken`, and when. Stored
 * under the SHA-256 of the `sessionid` cookie, never the cookie itself.
 */
export interface SessionRecord {
  realm_id: number;
  user_id: number;
  /** The `csrftoken` cookie's value: every `/json` request sends it back in `X-CSRFToken`. */
  csrf_token: string;
  /** UNIX seconds of the login. */
  created_at: number;
  /** UNIX seconds after which the session is refused (and DynamoDB TTL deletes the item). */
  expires_at: number;
}
