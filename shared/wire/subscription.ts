import type { StreamRecord } from "../data/records/stream.js";
import type { SubscriptionRecord } from "../data/records/subscription.js";

import { streamToWire, type StreamWireObject } from "./stream.js";

/**
 * A subscription on the wire: the stream object plus the user's personal
 * settings for it; the fields of `subscriptionSchema` in
 * `shared/events/schemas.ts`, which the `subscription` `add` event checks
 * at compile time.
 */
export interface SubscriptionWireObject extends StreamWireObject {
  /** `#rrggbb`. */
  color: string;
  is_muted: boolean;
  /** Deprecated inverse of `is_muted`. */
  in_home_view: boolean;
  pin_to_top: boolean;
  /** null: inherits the user's setting (with the `notification_settings_null` capability). */
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  /** 20 stream administrator, 50 subscriber. */
  role: 20 | 50;
  email_address: string;
  /** The stream's subscribers' user IDs, ascending; with `include_subscribers` only. */
  subscribers?: number[];
}

/**
 * The wire shape of a subscription (https://zulip.com/api/get-subscriptions;
 * OpenAPI `Subscriptions` at feature level 283), as served by
 * `GET /users/me/subscriptions`, `POST /register` (`subscriptions`,
 * `unsubscribed`) and the `subscription` `add` event.
 *
 * - Notification settings are null when they inherit the user's defaults.
 * - `in_home_view` is the deprecated inverse of `is_muted`.
 * - `email_address` and `role` are in the "Events" page's list although
 *   Zulip dropped them from this object (feature levels 226 and 133); we
 *   send them. `email_address` is empty, as Zulip sends it since level
 *   226: the address is fetched with `GET /streams/{stream_id}/email_address`.
 * - `subscribers` only when `opts.subscribers` is given (`include_subscribers`).
 * @param opts.subscribers user IDs of the stream's subscribers, sorted by the caller
 */
export function subscriptionToWire(
  stream: StreamRecord,
  sub: SubscriptionRecord,
  opts: { subscribers?: number[] } = {},
): SubscriptionWireObject {
  const wire: SubscriptionWireObject = {
    ...streamToWire(stream),
    color: sub.color,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    pin_to_top: sub.pin_to_top,
    desktop_notifications: sub.desktop_notifications,
    audible_notifications: sub.audible_notifications,
    push_notifications: sub.push_notifications,
    email_notifications: sub.email_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
    role: sub.role,
    email_address: "",
  };
  if (opts.subscribers !== undefined) wire.subscribers = opts.subscribers;
  return wire;
}
