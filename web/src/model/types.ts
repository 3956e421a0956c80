/**
 * The wire shapes the web app reads, named from the server's own modules
 * (type-only imports: no server code runs in the browser).
 */
import type { DeliveredEvent, MessageEventMessage } from "../../../shared/events/types.js";

export type { DeliveredEvent } from "../../../shared/events/types.js";
export type { WireUser } from "../../../shared/wire/user.js";
export type { StreamWireObject } from "../../../shared/wire/stream.js";
export type { SubscriptionWireObject } from "../../../shared/wire/subscription.js";
export type { WireAttachment } from "../../../shared/wire/attachment.js";

/** Any event `GET /events` delivers (https://zulip.com/api/get-events), with its queue-local `id`. */
export type ServerEvent = DeliveredEvent;

/**
 * A message as the app holds it: the server's message object
 * (https://zulip.com/api/get-messages; `timestamp` in UNIX seconds) with the
 * reader's `flags`. A message sent from this page and not yet confirmed by its
 * `message` event carries `local_id` (Zulip's local echo) and a provisional `id`.
 */
export type Message = MessageEventMessage & {
  flags: string[];
  local_id?: string;
  match_content?: string;
  match_subject?: string;
};

/** A reaction on a message. */
export type Reaction = Message["reactions"][number];

/** Zulip's topic resolution prefix (https://zulip.com/help/resolve-a-topic). */
export const RESOLVED_TOPIC_PREFIX = "✔ ";

/** Flags that mean the reader was mentioned (https://zulip.com/api/update-message-flags#available-flags). */
export const MENTION_FLAGS = ["mentioned", "wildcard_mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"];

/** Whether a message's flags mention the reader. */
export function isMentioned(flags: readonly string[]): boolean {
  return flags.some((f) => MENTION_FLAGS.includes(f));
}

/**
 * The key of a direct-message conversation: the sorted user IDs of its
 * participants other than the reader, comma-joined; the reader's own ID for
 * their notes to self.
 */
export function conversationKey(userIds: Iterable<number>, myUserId: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== myUserId).sort((a, b) => a - b);
  return (others.length > 0 ? others : [myUserId]).join(",");
}

/** The participants of a direct message (sender and recipients), from its `display_recipient`. */
export function messageUserIds(message: Pick<Message, "display_recipient" | "sender_id">): number[] {
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient.map((u) => u.id) : [];
  return [...new Set([message.sender_id, ...recipients])];
}

/** Zulip compares topics without case (https://zulip.com/help/rename-a-topic). */
export function sameTopic(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
