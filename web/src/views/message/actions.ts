import type { HistoryEntry } from "../../model/message-actions.js";
import type { Message } from "../../model/types.js";

/**
 * The actions of a message's buttons and "Message actions" menu
 * (https://zulip.com/help/message-actions). Each rejects with the server's
 * refusal (an `ApiError`), which the row shows where the person acted.
 */
export interface MessageMenuActions {
  /** The message's Markdown source, for the edit form. */
  loadSource(message: Message): Promise<string>;
  /** Saves new content (`PATCH /messages/{id}`). */
  editMessage(message: Message, content: string): Promise<void>;
  /** Deletes the message (`DELETE /messages/{id}`). */
  deleteMessage(message: Message): Promise<void>;
  /** Opens compose replying to the message with its quote (https://zulip.com/help/quote-message). */
  quoteAndReply(message: Message): Promise<void>;
  /** The absolute link to the message (its conversation `near` it). */
  messageLink(message: Message): string;
  /** Marks the message and every later one in the open view unread, and pauses reading there. */
  markUnreadFromHere(message: Message): Promise<void>;
  /** The message's versions, the original first. */
  editHistory(message: Message): Promise<HistoryEntry[]>;
  /** The user IDs of the people who read the message. */
  readReceipts(message: Message): Promise<number[]>;
}
