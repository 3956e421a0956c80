import type { JobOf, JobPayload } from "../../deferred/jobs.js";

/**
 * The send path's side of notifications: the `message_notifications` job
 * of a message whose rows the request wrote. Kept apart from the decision
 * (`message-notifications.ts`, run by the worker) so that the `messages`
 * Lambda's bundle carries only this builder.
 */

/** Payload of a `message_notifications` job. */
export type MessageNotificationsPayload = JobPayload<"message_notifications">;

/** One recipient's row as the send path wrote it. */
export interface RecipientRow {
  user_id: number;
  flags: readonly string[];
}

/** Whether a row may notify anyone: not the sender's, not already read (read rows include those who muted the sender). */
export function mayNotify(row: RecipientRow, senderId: number): boolean {
  return row.user_id !== senderId && !row.flags.includes("read");
}

/**
 * The `message_notifications` job of a message whose rows the request
 * wrote, or undefined when no row could notify anyone (a message to
 * oneself, an audience that has it read): the send path's only cost of
 * notifications is this entry in the SendMessageBatch it makes anyway.
 */
export function messageNotificationsJob(
  message: { realm_id: number; id: number; sender_id: number; stream_id?: number; topic: string },
  rows: readonly RecipientRow[],
): JobOf<"message_notifications"> | undefined {
  const recipients = rows.filter((r) => mayNotify(r, message.sender_id)).map((r) => ({ user_id: r.user_id, flags: [...r.flags] }));
  if (recipients.length === 0) return undefined;
  return {
    kind: "message_notifications",
    payload: {
      realm_id: message.realm_id,
      message_id: message.id,
      sender_id: message.sender_id,
      ...(message.stream_id !== undefined ? { stream_id: message.stream_id, topic: message.topic } : {}),
      recipients,
    },
  };
}

