/**
 * Subscriptions in the client state: register's `subscriptions` and the
 * `subscription` events (https://zulip.com/api/get-events#subscription-add).
 */
import type { ChatState, Subscription } from "./state.js";
import type { ServerEvent, SubscriptionWireObject } from "./types.js";

/** The subset of a subscription the state keeps. */
export function toSubscription(s: SubscriptionWireObject): Subscription {
  const { stream_id, name, description, color, is_muted, pin_to_top, invite_only } = s;
  const { desktop_notifications, audible_notifications, wildcard_mentions_notify } = s;
  return { stream_id, name, description, color, is_muted, pin_to_top, invite_only, desktop_notifications, audible_notifications, wildcard_mentions_notify };
}

/**
 * Applies a `subscription` event: `add` (the subscriptions and their streams), `remove`, and `update` of the
 * properties the state keeps; `peer_add`/`peer_remove` change nothing here (channels.ts keeps subscriber lists).
 */
export function applySubscription(s: ChatState, event: Extract<ServerEvent, { type: "subscription" }>): ChatState {
  const subscriptions = new Map(s.subscriptions);
  switch (event.op) {
    case "add":
      for (const sub of event.subscriptions) subscriptions.set(sub.stream_id, toSubscription(sub as SubscriptionWireObject));
      {
        const streams = new Map(s.streams);
        for (const { stream_id, name, description, invite_only } of event.subscriptions) {
          streams.set(stream_id, { stream_id, name, description, invite_only });
        }
        s.streams = streams;
      }
      break;
    case "remove":
      for (const sub of event.subscriptions) subscriptions.delete(sub.stream_id);
      break;
    case "update": {
      const old = subscriptions.get(event.stream_id);
      if (!old) return s;
      if (event.property === "in_home_view") subscriptions.set(event.stream_id, { ...old, is_muted: event.value !== true });
      else if (["is_muted", "pin_to_top", "color", "name", "description", "desktop_notifications", "audible_notifications", "wildcard_mentions_notify"].includes(event.property)) {
        subscriptions.set(event.stream_id, { ...old, [event.property]: event.value });
      }
      break;
    }
    default:
      // peer_add / peer_remove change subscriber lists, which the app does not keep.
      return s;
  }
  s.subscriptions = subscriptions;
  return s;
}
