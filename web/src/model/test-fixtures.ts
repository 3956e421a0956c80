/** Builders of wire objects for the model's unit tests. */
import type { DeliveredEvent, Message } from "./types.js";
import type { MatchContext } from "./narrow.js";

/** The reader in the tests. */
export const ME = 10;

/** A stream message of `sender` in stream 1, topic "lunch" unless overridden. */
export function streamMessage(id: number, over: Partial<Message> = {}): Message {
  return {
    id,
    type: "stream",
    sender_id: 11,
    sender_email: "iago@example.com",
    sender_full_name: "Iago",
    sender_realm_str: "zulip",
    avatar_url: "/avatar/11",
    recipient_id: 100,
    display_recipient: "general",
    stream_id: 1,
    subject: "lunch",
    topic_links: [],
    content: "<p>hello</p>",
    content_type: "text/html",
    timestamp: 1_700_000_000 + id,
    client: "test",
    is_me_message: false,
    reactions: [],
    submessages: [],
    flags: [],
    ...over,
  };
}

/** A direct message from `sender` to the reader and `others`. */
export function directMessage(id: number, sender: number, others: number[] = [], over: Partial<Message> = {}): Message {
  const people = [...new Set([sender, ME, ...others])].sort((a, b) => a - b);
  return streamMessage(id, {
    type: "private",
    sender_id: sender,
    display_recipient: people.map((p) => ({ id: p, email: `u${p}@example.com`, full_name: `User ${p}`, is_mirror_dummy: false })),
    stream_id: undefined,
    subject: "",
    recipient_id: 200,
    ...over,
  });
}

/** The `message` event of a message. */
export function messageEvent(m: Message, id = 1, extra: { local_message_id?: string } = {}): DeliveredEvent<"message"> {
  const { flags, local_id: _l, match_content: _c, match_subject: _s, ...message } = m;
  if (message.stream_id === undefined) delete message.stream_id;
  return { id, type: "message", message, flags, ...extra };
}

/** A reader with no muting unless given. */
export function context(over: Partial<MatchContext> = {}): MatchContext {
  return { myUserId: ME, isStreamMuted: () => false, topicPolicy: () => 0, ...over };
}
