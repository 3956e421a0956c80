/**
 * One user's row for one message (Zulip's UserMessage): the user received
 * the message (or it entered their history) and these are their flags.
 */
export interface UserMessageRecord {
  user_id: number;
  message_id: number;
  /** The message's recipient (a stream's or a conversation's), for gsi1. */
  recipient_id: number;
  /** Private message: puts the row in the user's `is:dm` index (gsi5). */
  is_private: boolean;
  /** Stored flag names (see {@link STORED_FLAGS}), no duplicates. */
  flags: string[];
}
