import type { StreamRecord } from "../data/records/stream.js";
import type { SubscriptionRecord } from "../data/records/subscription.js";

import { streamToWire, type StreamWireObject } from "./stream.js";

/**
 * The wire shape of a subscription: the stream's fields plus the user's
 * personal settings for it (spec "Events", subscription object; OpenAPI
 * `Subscriptions` at feature level 283), as served by
 * `GET /users/me/subscriptions`, `POST /register` (`subscriptions`,
 * `unsubscribed`) and the `subscription` `add` event.
 *
 * - Notification settings are null when they inherit the user's defaults.
 * - `in_home_view` is the deprecated inverse of `is_muted`.
 * - `email_address` and `role` are in the spec's list although Zulip
 *   dropped them from this object (feature levels 226 and 133); the spec
 *   wins. We run no email gateway, so `email_address` is empty.
 * - `subscribers` only when `opts.subscribers` is given (`include_subscribers`).
 * @param opts.subscribers user IDs of the stream's subscribers, sorted by the caller
 */
export function subscriptionToWire(
  stream: StreamRecord,
  sub: SubscriptionRecord,
  opts: { subscribers?: number[] } = {},
): StreamWireObject {
  const wire: StreamWireObject = {
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
