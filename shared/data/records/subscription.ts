/**
 * A user's subscription to a stream as stored: base key in the user's
 * partition (`keys.subscription`), and in the stream's subscriber index
 * (`keys.streamSubscribersIndex`) while active. Unsubscribing keeps the item
 * with `active: false`, out of the subscriber index (Zulip keeps inactive
 * subscriptions: they give `unsubscribed` in `POST /register`).
 */
export interface SubscriptionRecord {
  realm_id: number;
  user_id: number;
  stream_id: number;
  active: boolean;
  /** `#rrggbb`. */
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  /** null: inherit the user's setting. */
  desktop_notifications: boolean | null;
  email_notifications: boolean | null;
  push_notifications: boolean | null;
  audible_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  /** 20 stream administrator, 50 subscriber. */
  role: 20 | 50;
}
