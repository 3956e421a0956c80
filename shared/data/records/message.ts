import type { MessageReactions } from "./reaction.js";

/** One recipient of a direct message as shown in `display_recipient` (https://zulip.com/api/get-messages#response). */
export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

/**
 * A message as stored: everything `shared/wire/message.ts` needs to build the
 * wire object without reading anything else (sender and recipient data are
 * denormalized at send time, see docs/data-model.md "Messages").
 *
 * The item's own `type` attribute is the entity name (`message`), so the
 * Zulip message type lives in {@link MessageRecord.recipient_type}.
 */
export interface MessageRecord {
  id: number;
  realm_id: number;
  /** Zulip's message `type`: `stream` or `private`. */
  recipient_type: "stream" | "private";
  recipient_id: number;
  /** Stream messages only. */
  stream_id?: number;
  /** Topic; `""` for private messages. */
  topic: string;
  /** Stream name at send time, or the participants of a private message (sorted by ID). */
  display_recipient: string | DisplayRecipientUser[];
  /** Private messages: sorted user IDs of every participant, the sender included. */
  dm_user_ids?: number[];
  sender_id: number;
  /** The sender's API email at send time. */
  sender_email: string;
  sender_full_name: string;
  /** Organization subdomain (`sender_realm_str`). */
  sender_realm_str: string;
  /** The sender's avatar URL at send time (never null). */
  sender_avatar_url: string;
  /**
   * True when `client_gravatar` clients may compute the avatar themselves:
   * the avatar is a gravatar and the API email is the real one.
   */
  sender_gravatar: boolean;
  /** Markdown source. */
  content: string;
  rendered_content: string;
  rendered_content_version: number;
  /** UNIX seconds. */
  timestamp: number;
  /** Zulip's sending client name. */
  client: string;
  is_me_message: boolean;
  has_link: boolean;
  has_image: boolean;
  has_attachment: boolean;
  /** Users mentioned directly (not silently). */
  mentioned_user_ids: number[];
  mentioned_group_ids: number[];
  wildcard_mentioned: boolean;
  /** Reactions, by key (`MessageReactions`; written only by `shared/data/reactions.ts`; the wire list is `messageReactions`). */
  reactions: MessageReactions["reactions"];
  reaction_order: MessageReactions["reaction_order"];
  reaction_seq: MessageReactions["reaction_seq"];
  /** Most recent edit first; empty until edited. */
  edit_history: Record<string, unknown>[];
  /** UNIX seconds; absent until edited. */
  last_edit_timestamp?: number;
  /**
   * Submessages (widget state: polls, to-do lists), in the order they were
   * added; written only by `shared/data/submessages.ts` and at send.
   */
  submessages: SubmessageRecord[];
  /**
   * Stored size of `submessages` in bytes (DynamoDB's measure), which bounds
   * them (`MAX_SUBMESSAGE_BYTES`); absent on items written before it, read as 0.
   */
  submessage_bytes?: number;
  topic_links: { text: string; url: string }[];
}

/**
 * A submessage as stored on its message item and as the API shows it in a
 * message's `submessages` (https://zulip.com/api/get-messages#response;
 * Zulip's `SubMessage` row).
 */
export type SubmessageRecord = {
  /** `widget` for the apps' widgets (any string is accepted, as in Zulip). */
  msg_type: string;
  /** JSON text, stored as sent. */
  content: string;
  message_id: number;
  sender_id: number;
  /** From the `submessage` counter: unique, increasing in the order they were allocated. */
  id: number;
};

/** Who received a message, with the chunk each ID is stored in. */
export interface MessageRecipients {
  /** Every user with a UserMessage row for the message, ascending. */
  userIds: number[];
  /** Chunk name → IDs in it (used to remove IDs). */
  chunks: Map<string, number[]>;
  /** False when the message has no recipients item at all (data written before the item existed). */
  found: boolean;
}
