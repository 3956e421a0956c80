import type { BasePushPayload } from "./push-payload.js";
import { mobilePushContent, truncatePushContent } from "./push-message-html.js";

/**
 * The payloads of a message's mobile push notification (Zulip's
 * `get_message_payload`, `get_message_payload_apns` and
 * `get_message_payload_gcm` in `zerver/lib/push_notifications.py`): what
 * the Zulip apps read to show the notification and to open the
 * conversation when it is tapped. The base fields are `push-payload.ts`'s;
 * the text is `push-message-html.ts`'s.
 */

/** The message as the notification describes it (the stored message with its sender as they are now). */
export interface PushMessage {
  id: number;
  recipient_type: "stream" | "private";
  stream_id?: number;
  topic: string;
  /** Direct messages: every participant's user ID, the sender's included. */
  dm_user_ids?: readonly number[];
  /** Direct messages: the participants with their current names. */
  participants?: readonly { id: number; full_name: string }[];
  sender_id: number;
  /** The sender's API email (Zulip's `sender.email`: a fake address unless their email is visible to everyone). */
  sender_email: string;
  sender_full_name: string;
  /** The sender's avatar URL, absolute (Zulip's `absolute_avatar_url`). */
  sender_avatar_url: string;
  /** UNIX seconds. */
  timestamp: number;
  rendered_content: string;
}

/** What else the notification says. */
export interface PushMessageContext {
  /** The stream's current name (stream messages). */
  streamName?: string;
  /** Why the user is notified (`NotificationTrigger` of `notification-data.ts`). */
  trigger: string;
  /** The group whose mention notified the user (not a personal mention). */
  mentionedUserGroup?: { id: number; name: string };
}

/** A group direct message: more than two participants (a 1:1 has two, a note to oneself one). */
function isGroupDm(message: PushMessage): boolean {
  return message.recipient_type === "private" && (message.dm_user_ids?.length ?? 0) > 2;
}

/** Zulip's `get_message_payload`: the base fields, the sender, the time, the group mentioned, and where the message went. */
export function messagePushPayload(base: BasePushPayload, message: PushMessage, context: PushMessageContext): Record<string, unknown> {
  const data: Record<string, unknown> = {
    ...base,
    sender_id: message.sender_id,
    sender_email: message.sender_email,
    time: message.timestamp,
  };
  if (context.mentionedUserGroup) {
    data.mentioned_user_group_id = context.mentionedUserGroup.id;
    data.mentioned_user_group_name = context.mentionedUserGroup.name;
  }
  if (message.recipient_type === "stream") {
    data.recipient_type = "stream";
    data.stream = context.streamName ?? "";
    data.stream_id = message.stream_id;
    data.topic = message.topic;
  } else {
    data.recipient_type = "private";
    if (isGroupDm(message)) data.pm_users = [...message.dm_user_ids!].sort((a, b) => a - b).join(",");
  }
  return data;
}

/** Zulip's `get_apns_alert_title`: `#stream > topic`, the group's sorted names, or the sender's name (1:1). */
export function apnsAlertTitle(message: PushMessage, context: PushMessageContext): string {
  if (isGroupDm(message)) return (message.participants ?? []).map((p) => p.full_name).sort().join(", ");
  if (message.recipient_type === "stream") return `#${context.streamName ?? ""} > ${message.topic}`;
  return message.sender_full_name;
}

const WILDCARD_TRIGGERS = new Set([
  "topic_wildcard_mentioned_in_followed_topic",
  "stream_wildcard_mentioned_in_followed_topic",
  "topic_wildcard_mentioned",
  "stream_wildcard_mentioned",
]);

/** Zulip's `get_apns_alert_subtitle`: who mentioned whom, nothing for a 1:1, else the sender's name and a colon. */
export function apnsAlertSubtitle(message: PushMessage, context: PushMessageContext): string {
  const sender = message.sender_full_name;
  if (context.trigger === "mentioned") {
    return context.mentionedUserGroup ? `${sender} mentioned @${context.mentionedUserGroup.name}:` : `${sender} mentioned you:`;
  }
  if (WILDCARD_TRIGGERS.has(context.trigger)) return `${sender} mentioned everyone:`;
  if (message.recipient_type === "private" && !isGroupDm(message)) return "";
  return `${sender}:`;
}

/** The payloads of one message's notification for both platforms, as `sendPushToUserDevices` takes them. */
export interface MessagePushPayloads {
  apns: Record<string, unknown>;
  gcm: Record<string, unknown>;
  gcmOptions: Record<string, unknown>;
}

/**
 * Zulip's `get_message_payload_apns` and `get_message_payload_gcm`:
 * - APNs: an alert (title, subtitle, the text as body), the default sound,
 *   badge 0 (Zulip keeps it 0 for now), and the message payload with
 *   `message_ids` under `custom.zulip`;
 * - FCM: the message payload with `event: "message"`, `zulip_message_id`,
 *   the text, whether it was cut, the sender's name and absolute avatar
 *   URL, at high priority.
 */
export function messagePushPayloads(base: BasePushPayload, message: PushMessage, context: PushMessageContext): MessagePushPayloads {
  const payload = messagePushPayload(base, message, context);
  const { content, truncated } = truncatePushContent(mobilePushContent(message.rendered_content));
  return {
    apns: {
      alert: { title: apnsAlertTitle(message, context), subtitle: apnsAlertSubtitle(message, context), body: content },
      sound: "default",
      badge: 0,
      custom: { zulip: { ...payload, message_ids: [message.id] } },
    },
    gcm: {
      ...payload,
      event: "message",
      zulip_message_id: message.id,
      content,
      content_truncated: truncated,
      sender_full_name: message.sender_full_name,
      sender_avatar_url: message.sender_avatar_url,
    },
    gcmOptions: { priority: "high" },
  };
}

/** The users a rendered message mentions personally and not silently (`<span class="user-mention" data-user-id="…">`). */
export function personalMentionIds(renderedContent: string): Set<number> {
  const ids = new Set<number>();
  for (const m of renderedContent.matchAll(/class="user-mention" data-user-id="(\d+)"/g)) ids.add(Number(m[1]));
  return ids;
}

/**
 * The group whose mention notified a user (Zulip's
 * `get_user_group_mentions_data` for one user): none when they are
 * mentioned personally; else, of the mentioned groups they belong to, the
 * one with the fewest members (the first mentioned on a tie).
 * @param groups the message's mentioned groups, in mention order, each with its members (subgroups' included)
 */
export function mentionedUserGroupOf(
  userId: number,
  personal: ReadonlySet<number>,
  groups: readonly { id: number; name: string; memberIds: readonly number[] }[],
): { id: number; name: string } | undefined {
  if (personal.has(userId)) return undefined;
  let best: { id: number; name: string; size: number } | undefined;
  for (const g of groups) {
    if (!g.memberIds.includes(userId)) continue;
    if (!best || g.memberIds.length < best.size) best = { id: g.id, name: g.name, size: g.memberIds.length };
  }
  return best ? { id: best.id, name: best.name } : undefined;
}
