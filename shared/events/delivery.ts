import { createHash } from "node:crypto";
import type { LogItem, QueueOptions } from "../data/records/event-queue.js";

import { eventMatchesNarrow } from "./narrow.js";
import { PUBLIC_STREAM_MARKER } from "./publish.js";
import type { ZulipEvent } from "./types.js";

/** What delivery needs to know about a queue: its options and owner. */
export interface DeliveryQueue extends QueueOptions {
  queue_id: string;
  user_id: number;
  /** See {@link readsPublicLog}. */
  reads_public_log?: boolean;
  /** The owner's API email (the deprecated `user` field of legacy settings events). */
  user_email: string;
}

/**
 * An event as delivery reads and reshapes it: the JSON of a log item, which
 * `sendEvent` wrote from a {@link ZulipEvent} (typed by the event schemas),
 * reshaped per queue into forms the schemas also declare.
 */
type EventJson = Record<string, unknown> & { type: string };

/**
 * Settings whose changes Zulip also announces with the deprecated
 * `update_display_settings` event (https://zulip.com/api/register-queue: the legacy
 * top-level keys present with `update_display_settings`).
 */
export const LEGACY_DISPLAY_SETTINGS: ReadonlySet<string> = new Set([
  "color_scheme",
  "default_language",
  "default_view",
  "demote_inactive_streams",
  "dense_mode",
  "emojiset",
  "enable_drafts_synchronization",
  "enter_sends",
  "fluid_layout_width",
  "high_contrast_mode",
  "left_side_userlist",
  "starred_message_counts",
  "timezone",
  "translate_emoticons",
  "twenty_four_hour_time",
  "web_home_view",
]);

/** Settings announced with the deprecated `update_global_notifications` event. */
export const LEGACY_NOTIFICATION_SETTINGS: ReadonlySet<string> = new Set([
  "desktop_icon_count_display",
  "email_notifications_batching_period_seconds",
  "enable_desktop_notifications",
  "enable_digest_emails",
  "enable_login_emails",
  "enable_marketing_emails",
  "enable_offline_email_notifications",
  "enable_offline_push_notifications",
  "enable_online_push_notifications",
  "enable_sounds",
  "enable_stream_audible_notifications",
  "enable_stream_desktop_notifications",
  "enable_stream_email_notifications",
  "enable_stream_push_notifications",
  "message_content_in_email_notifications",
  "notification_sound",
  "pm_content_in_desktop_notifications",
  "presence_enabled",
  "realm_name_in_email_notifications_policy",
  "wildcard_mentions_notify",
]);

/** Fields of a stored `message` event that only the server reads. */
const MESSAGE_EVENT_INTERNAL = ["raw_content", "local_id", "sender_queue_id", PUBLIC_STREAM_MARKER];

/**
 * True when `avatarUrl` is the gravatar of `email`, i.e. a client with
 * `client_gravatar` can compute it and the server sends null instead
 * (Zulip's rule: gravatar avatar and the API email is the real one).
 */
export function isClientComputableGravatar(avatarUrl: unknown, email: unknown): boolean {
  if (typeof avatarUrl !== "string" || typeof email !== "string") return false;
  let url: URL;
  try {
    url = new URL(avatarUrl);
  } catch {
    return false;
  }
  if (url.hostname !== "secure.gravatar.com") return false;
  const hash = createHash("md5").update(email.trim().toLowerCase()).digest("hex");
  return url.pathname === `/avatar/${hash}`;
}

/**
 * Whether a queue takes an event, before any per-queue transform (Zulip's
 * `ClientDescriptor.accepts_event`): the queue's `event_types`, the narrow
 * for messages, the `stream_typing_notifications` capability for stream
 * typing, the `linkifier_url_template` capability for `realm_linkifiers`
 * (older clients would misread URL templates as format strings), and no
 * legacy settings events for `user_settings_object` clients.
 */
export function acceptsEvent(queue: QueueOptions, event: EventJson, flags: string[] = []): boolean {
  if (queue.event_types !== null) {
    if (!queue.event_types.includes(event.type)) return false;
    // Clients that ask for both get only the modern form.
    if (event.type === "muted_topics" && queue.event_types.includes("user_topic")) return false;
  }
  if (event.type === "message") {
    return eventMatchesNarrow(queue.narrow, (event.message ?? {}) as Record<string, unknown>, flags);
  }
  if (event.type === "typing" && "stream_id" in event) return queue.capabilities.stream_typing_notifications;
  if (event.type === "realm_linkifiers") return queue.capabilities.linkifier_url_template;
  if (
    queue.capabilities.user_settings_object &&
    (event.type === "update_display_settings" || event.type === "update_global_notifications")
  ) {
    return false;
  }
  return true;
}

/**
 * Whether a queue reads its realm's public-stream log (Zulip: queues with
 * `all_public_streams` or a non-empty narrow get public-stream messages
 * beyond their owner's subscriptions). Stored on the queue at registration
 * (`reads_public_log`), where guests' narrowed queues are left out: guests
 * may not read streams they are not subscribed to.
 */
export function readsPublicLog(
  queue: Pick<QueueOptions, "all_public_streams" | "narrow"> & { reads_public_log?: boolean },
): boolean {
  return queue.reads_public_log ?? (queue.all_public_streams || queue.narrow.length > 0);
}

/**
 * Whether a queue reads its realm's stream-typing log (`RTYP#`): only
 * queues that take stream `typing` events (the `stream_typing_notifications`
 * capability, and `typing` among their `event_types` when they list any),
 * so the others pay no read for it.
 */
export function readsTypingLog(queue: Pick<QueueOptions, "event_types" | "capabilities">): boolean {
  return queue.capabilities.stream_typing_notifications && (queue.event_types === null || queue.event_types.includes("typing"));
}

function finalizeMessageEvent(queue: DeliveryQueue, stored: Record<string, unknown>, flags: string[]): EventJson {
  const message = { ...((stored.message ?? {}) as Record<string, unknown>) };
  const rawContent = (stored.raw_content ?? message.raw_content) as string | undefined;
  delete message.raw_content;
  if (!queue.apply_markdown && typeof rawContent === "string") {
    message.content = rawContent;
    message.content_type = "text/x-markdown";
  }
  if (queue.client_gravatar && isClientComputableGravatar(message.avatar_url, message.sender_email)) {
    message.avatar_url = null;
  }
  const event: EventJson = { type: "message", message, flags };
  // Only the sending client's own queue learns which local message this was.
  if (stored.local_id !== undefined && stored.local_id !== null && stored.sender_queue_id === queue.queue_id) {
    event.local_message_id = stored.local_id;
    event.local_id = stored.local_id;
  }
  return event;
}

/**
 * The events one log item becomes for one queue, in order, without IDs:
 * none when the queue does not accept it; several for the compatibility
 * forms of older clients (Zulip's per-client processing in
 * `process_message_event`, `process_presence_event`,
 * `process_deletion_event` and the legacy settings events).
 *
 * @param source which log the item was read from; a user-log copy of a
 *   public-stream event is skipped by queues that read the realm log
 * @returns events of the event schemas (the end-to-end tests validate every
 *   delivered event against them); the log item's JSON is taken to be what
 *   `sendEvent` wrote, as the schema-typed event it was
 */
export function eventsForQueue(queue: DeliveryQueue, item: LogItem, source: "U" | "R" | "T"): ZulipEvent[] {
  return reshapeForQueue(queue, item, source) as ZulipEvent[];
}

function reshapeForQueue(queue: DeliveryQueue, item: LogItem, source: "U" | "R" | "T"): EventJson[] {
  const stored = item.event as EventJson;
  if (source === "U" && stored[PUBLIC_STREAM_MARKER] === true && readsPublicLog(queue)) return [];

  if (stored.type === "message") {
    const flags =
      source === "U" ? (item.flags ?? []) : (item.flags_by_user?.[String(queue.user_id)] ?? []);
    const event = finalizeMessageEvent(queue, stored, flags);
    return acceptsEvent(queue, event, flags) ? [event] : [];
  }

  const event: EventJson = { ...stored };
  for (const key of MESSAGE_EVENT_INTERNAL) delete event[key];
  if (!acceptsEvent(queue, event)) {
    // A user_settings event may still yield its legacy form for a queue
    // that asked only for the legacy type.
    if (event.type !== "user_settings") return [];
  }

  switch (event.type) {
    case "presence": {
      if (queue.slim_presence) delete event.email;
      return [event];
    }
    case "delete_message": {
      if (queue.capabilities.bulk_message_deletion || !Array.isArray(event.message_ids)) return [event];
      return (event.message_ids as number[]).map((messageId) => {
        const single: EventJson = { ...event, message_id: messageId };
        delete single.message_ids;
        return single;
      });
    }
    case "realm_user": {
      const person = event.person as Record<string, unknown> | undefined;
      if (event.op === "add" && person && queue.client_gravatar) {
        if (isClientComputableGravatar(person.avatar_url, person.email)) {
          return [{ ...event, person: { ...person, avatar_url: null } }];
        }
      }
      return [event];
    }
    case "user_settings": {
      const out: EventJson[] = [];
      if (acceptsEvent(queue, event)) out.push(event);
      const property = String(event.property);
      let legacy: EventJson | undefined;
      if (LEGACY_DISPLAY_SETTINGS.has(property)) {
        legacy = { type: "update_display_settings", user: queue.user_email, setting_name: property, setting: event.value };
        if (event.language_name !== undefined) legacy.language_name = event.language_name;
      } else if (LEGACY_NOTIFICATION_SETTINGS.has(property)) {
        legacy = {
          type: "update_global_notifications",
          user: queue.user_email,
          notification_name: property,
          setting: event.value,
        };
      }
      if (legacy && acceptsEvent(queue, legacy)) out.push(legacy);
      return out;
    }
    default:
      return [event];
  }
}
