/**
 * One user's row for one message (Zulip's UserMessage): the user received
 * the message (or it entered their history) and these are their flags.
 */
export interface UserMessageRecord {
  user_id: number;
  message_id: number;
  /**
   * Direct messages only: the conversation's recipient, for gsi1 (the
   * viewer's messages of one conversation). Rows of stream messages name
   * neither stream nor topic, so moving messages between streams leaves
   * them alone (docs/data-model.md "Moving messages"); rows written before
   * that rule may still carry the stream's recipient, which no reader uses.
   */
  recipient_id?: number;
  /** Private message: puts the row in the user's `is:dm` index (gsi5). */
  is_private: boolean;
  /** Stored flag names (see {@link STORED_FLAGS}), no duplicates. */
  flags: string[];
}
