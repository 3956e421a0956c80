import type { DisplayRecipientUser, MessageRecord, SubmessageRecord } from "../data/records/message.js";
import { messageReactions } from "../data/reactions.js";
import type { ReactionRecord } from "../data/records/reaction.js";

/**
 * A message on the wire (https://zulip.com/api/get-messages#response), fields in
 * the order {@link messageToWire} writes them. The message of a `message`
 * event is this without `flags` and the search highlights.
 */
export type WireMessage = {
  id: number;
  type: "stream" | "private";
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  sender_realm_str: string;
  avatar_url: string | null;
  recipient_id: number;
  display_recipient: string | DisplayRecipientUser[];
  subject: string;
  topic_links: { text: string; url: string }[];
  content: string;
  content_type: "text/html" | "text/x-markdown";
  /** UNIX seconds. */
  timestamp: number;
  client: string;
  is_me_message: boolean;
  reactions: ReactionRecord[];
  submessages: SubmessageRecord[];
  /** Stream messages only. */
  stream_id?: number;
  /** Once edited, where the realm allows viewing it. */
  edit_history?: Record<string, unknown>[];
  /** UNIX seconds; once edited. */
  last_edit_timestamp?: number;
  /** The viewer's flags (`GET /messages`, `GET /messages/{id}`). */
  flags?: string[];
  /** Keyword-search highlights (HTML). */
  match_content?: string;
  match_subject?: string;
};

/**
 * A message's submessages in ID order (Zulip's order): a concurrent post
 * may append a lower ID after a higher one (IDs are allocated before the
 * append), and the apps replay widget state in ID order. Each in exactly
 * the five wire fields.
 */
function wireSubmessages(stored: SubmessageRecord[] | undefined): SubmessageRecord[] {
  if (!stored || stored.length === 0) return [];
  return stored
    .map((s) => ({ msg_type: s.msg_type, content: s.content, message_id: s.message_id, sender_id: s.sender_id, id: s.id }))
    .sort((a, b) => a.id - b.id);
}

/** Options of {@link messageToWire}. */
export interface MessageWireOptions {
  /** `content` is the rendered HTML (`text/html`) instead of the Markdown source (`text/x-markdown`). */
  applyMarkdown: boolean;
  /** `avatar_url` is null where the client computes gravatars itself. */
  clientGravatar: boolean;
  /** The viewer's flags (already in wire form); omitted from the object when undefined (message events). */
  flags?: string[];
  /**
   * The realm's `allow_edit_history` (`shared/domain/realm-settings.ts`):
   * when false, `edit_history` is left out (https://zulip.com/api/get-messages:
   * absent where the organization disabled viewing edit history). Default true.
   */
  allowEditHistory?: boolean;
  /** Keyword-search highlights (`GET /messages` with a `search` term only). */
  match?: { match_content: string; match_subject: string };
}

/**
 * The wire shape of a message (https://zulip.com/api/get-messages#response), built
 * from the stored record alone — no other reads.
 *
 * - `type`/`subject`/`stream_id`/`display_recipient` follow the recipient:
 *   `stream_id` only for stream messages, `subject` `""` for private ones.
 * - `avatar_url` is null only with `client_gravatar` for a gravatar whose
 *   email the client can see.
 * - `edit_history` and `last_edit_timestamp` appear only once edited;
 *   `edit_history` not at all where the realm disallows viewing it.
 * - `flags` appear when given (`GET /messages`), not in `message` events,
 *   where the event carries per-user flags next to the message.
 */
export function messageToWire(m: MessageRecord, opts: MessageWireOptions): WireMessage {
  const wire: WireMessage = {
    id: m.id,
    type: m.recipient_type,
    sender_id: m.sender_id,
    sender_email: m.sender_email,
    sender_full_name: m.sender_full_name,
    sender_realm_str: m.sender_realm_str,
    avatar_url: opts.clientGravatar && m.sender_gravatar ? null : m.sender_avatar_url,
    recipient_id: m.recipient_id,
    display_recipient: m.display_recipient,
    subject: m.recipient_type === "stream" ? m.topic : "",
    topic_links: m.topic_links ?? [],
    content: opts.applyMarkdown ? m.rendered_content : m.content,
    content_type: opts.applyMarkdown ? "text/html" : "text/x-markdown",
    timestamp: m.timestamp,
    client: m.client,
    is_me_message: m.is_me_message,
    reactions: messageReactions(m),
    submessages: wireSubmessages(m.submessages),
  };
  if (m.recipient_type === "stream") wire.stream_id = m.stream_id;
  if (m.edit_history && m.edit_history.length > 0 && opts.allowEditHistory !== false) wire.edit_history = m.edit_history;
  if (m.last_edit_timestamp !== undefined) wire.last_edit_timestamp = m.last_edit_timestamp;
  if (opts.flags) wire.flags = opts.flags;
  if (opts.match) Object.assign(wire, opts.match);
  return wire;
}
