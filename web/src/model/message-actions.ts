/**
 * The message actions of Zulip's web app that are plain chat logic: the link
 * to a message, the quote block of "Quote and reply", and the API calls of
 * editing, deleting, marking unread from a message, edit history and read
 * receipts. No view code; the views call these through the row's actions.
 */
import type { ApiClient } from "../api/client.js";
import { apiNarrow, dmHash, encodeHashComponent, streamHash, type View } from "./narrow.js";
import { conversationKey, messageUserIds, type Message } from "./types.js";

/** What links and names need from the state. */
export interface LinkNames {
  myUserId: number;
  streamName(streamId: number): string | undefined;
  userName(userId: number): string | undefined;
}

/**
 * The hash of the view around a message (Zulip's `by_conversation_and_time_url`):
 * `#narrow/channel/12-general/topic/lunch/near/345` for a stream message,
 * `#narrow/dm/8-Iago/near/345` for a direct message.
 */
export function messageNearHash(message: Pick<Message, "id" | "type" | "stream_id" | "subject" | "display_recipient" | "sender_id">, names: LinkNames): string {
  const near = `/near/${encodeHashComponent(String(message.id))}`;
  if (message.type === "stream" && message.stream_id !== undefined) {
    const name = names.streamName(message.stream_id) ?? (typeof message.display_recipient === "string" ? message.display_recipient : "");
    return streamHash(message.stream_id, name, message.subject) + near;
  }
  const others = conversationKey(messageUserIds(message), names.myUserId).split(",").map(Number);
  return dmHash(others, names.userName) + near;
}

/** The absolute link to a message (https://zulip.com/help/link-to-a-message-or-conversation): the site's origin, `/`, the near hash. */
export function messageLink(origin: string, message: Parameters<typeof messageNearHash>[0], names: LinkNames): string {
  return `${origin.replace(/\/$/, "")}/${messageNearHash(message, names)}`;
}

/**
 * A code fence that the quoted text cannot close (Zulip's `get_unused_fence`):
 * three backticks, or one more than the longest backtick fence in `content`.
 */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1]!.length + 1);
  return "`".repeat(length);
}

/**
 * The text "Quote and reply" puts into compose (https://zulip.com/help/quote-message):
 * a silent mention of the sender, a link to the message, and its Markdown in a quote block —
 * `@_**Iago|11** [said](link):` then `` ```quote `` … `` ``` ``.
 */
export function quoteText(message: Pick<Message, "sender_full_name" | "sender_id">, rawContent: string, link: string): string {
  const fence = unusedFence(rawContent);
  return `@_**${message.sender_full_name}|${message.sender_id}** [said](${link}):\n${fence}quote\n${rawContent}\n${fence}`;
}

/**
 * Adds a block of text to a draft as Zulip's compose does for a quote: on a
 * paragraph of its own (a blank line after earlier text), followed by a new line.
 */
export function appendBlock(draft: string, block: string): string {
  if (draft === "") return `${block}\n`;
  const gap = draft.endsWith("\n\n") ? "" : draft.endsWith("\n") ? "\n" : "\n\n";
  return `${draft}${gap}${block}\n`;
}

/**
 * The Markdown source of a message (`GET /messages/{id}` with `apply_markdown`
 * false, https://zulip.com/api/get-message).
 * @throws ApiError with the server's message
 */
export async function fetchRawContent(api: ApiClient, messageId: number): Promise<string> {
  const r = await api.call<{ message: { content: string }; raw_content?: string }>("GET", `/messages/${messageId}`, { apply_markdown: false });
  return r.raw_content ?? r.message.content;
}

/**
 * Changes a message's content (`PATCH /messages/{id}`, https://zulip.com/api/update-message);
 * the `update_message` event brings the new rendering to every reader.
 * @throws ApiError, e.g. "The time limit for editing this message has passed"
 */
export async function editMessageContent(api: ApiClient, messageId: number, content: string): Promise<void> {
  await api.call("PATCH", `/messages/${messageId}`, { content });
}

/**
 * Deletes a message (`DELETE /messages/{id}`, https://zulip.com/api/delete-message);
 * the `delete_message` event removes it everywhere.
 * @throws ApiError, e.g. "You don't have permission to delete this message"
 */
export async function deleteMessage(api: ApiClient, messageId: number): Promise<void> {
  await api.call("DELETE", `/messages/${messageId}`);
}

/** The answer of `POST /messages/flags/narrow`. */
interface FlagsNarrowResult {
  last_processed_id: number | null;
  found_newest: boolean;
}

/** How many messages one `POST /messages/flags/narrow` marks (Zulip's web app asks for 1000 at a time). */
export const UNREAD_BATCH = 1000;

/**
 * Marks a message and every later one of the view unread
 * (https://zulip.com/help/mark-as-unread; `POST /messages/flags/narrow`,
 * https://zulip.com/api/update-message-flags-for-narrow): anchored at the
 * message, op `remove`, flag `read`, in batches of {@link UNREAD_BATCH} until
 * the newest. The `update_message_flags` events bring the counts back.
 * @throws ApiError with the server's message
 */
export async function markUnreadFromHere(api: ApiClient, view: View, messageId: number): Promise<void> {
  let anchor = messageId;
  let includeAnchor = true;
  for (;;) {
    const r = await api.call<FlagsNarrowResult>("POST", "/messages/flags/narrow", {
      anchor,
      include_anchor: includeAnchor,
      num_before: 0,
      num_after: UNREAD_BATCH,
      narrow: apiNarrow(view),
      op: "remove",
      flag: "read",
    });
    if (r.found_newest || r.last_processed_id === null || r.last_processed_id <= anchor) return;
    anchor = r.last_processed_id;
    includeAnchor = false;
  }
}

/** One version of a message in its edit history (https://zulip.com/api/get-message-history). */
export interface HistoryEntry {
  timestamp: number;
  user_id: number | null;
  topic: string;
  stream?: number;
  content: string;
  rendered_content: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  prev_topic?: string;
  prev_stream?: number;
}

/**
 * A message's versions, oldest (the original) first (`GET /messages/{id}/history`).
 * @throws ApiError, e.g. "Message edit history is disabled in this organization"
 */
export async function fetchEditHistory(api: ApiClient, messageId: number): Promise<HistoryEntry[]> {
  const r = await api.call<{ message_history: HistoryEntry[] }>("GET", `/messages/${messageId}/history`);
  return r.message_history;
}

/** What one history entry changed, for its heading. */
export type HistoryChange = "original" | "edited" | "moved" | "edited and moved";

/** Whether an entry is the original, an edit of the content, a move (topic or stream), or both. */
export function historyChange(entry: HistoryEntry, index: number): HistoryChange {
  if (index === 0) return "original";
  const edited = entry.prev_content !== undefined;
  const moved = entry.prev_topic !== undefined || entry.prev_stream !== undefined;
  return edited && moved ? "edited and moved" : moved ? "moved" : "edited";
}

/**
 * Who read a message (`GET /messages/{id}/read_receipts`, https://zulip.com/api/get-read-receipts).
 * @throws ApiError, e.g. "Read receipts are disabled in this organization."
 */
export async function fetchReadReceipts(api: ApiClient, messageId: number): Promise<number[]> {
  const r = await api.call<{ user_ids: number[] }>("GET", `/messages/${messageId}/read_receipts`);
  return r.user_ids;
}
