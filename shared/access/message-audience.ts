import type { Deps } from "../deps.js";
import type { MessageRecipients, MessageRecord } from "../data/records/message.js";
import type { StreamRecord } from "../data/records/stream.js";
import { getMessageRecipients } from "../data/messages.js";
import { getStream } from "../data/streams.js";
import { listStreamSubscriberIds } from "../data/subscriptions.js";
import { wireFlags } from "../data/user-messages.js";
import type { UserMessageRecord } from "../data/records/user-message.js";

/**
 * Who hears about a change to a message (Zulip's recipients of
 * `update_message`, `reaction` and `delete_message` events): everyone with
 * a UserMessage row for it — read from the message's recipients items, so
 * users who received it and unsubscribed since are reached too — and, for
 * a stream whose history is shared with subscribers, the current
 * subscribers without a row (they may have it on screen from the stream's
 * history; Zulip's `subscriber_info` gives them the flags `["read"]`).
 */
export interface MessageAudience {
  /** The recipients items as read (row holders and their chunks). */
  recipients: MessageRecipients;
  /** Current subscribers without a row who can read the message (shared history streams only). */
  subscribersWithoutRows: number[];
  /** The message's stream (stream messages only; undefined when it is gone). */
  stream: StreamRecord | undefined;
}

/**
 * Reads a message's audience: the recipients Query, and for stream messages
 * the stream and its subscriber list, all in parallel (one round trip).
 *
 * Messages written before recipients items existed (no item at all) fall
 * back to a guess: a DM's participants, a stream's current subscribers.
 * @param streamRead the stream and its subscriber IDs, already read (many
 *   messages of one stream share one read); then only the recipients are read
 */
export async function messageAudience(
  deps: Pick<Deps, "db" | "table">,
  message: MessageRecord,
  streamRead?: { stream: StreamRecord | undefined; subscriberIds: number[] },
): Promise<MessageAudience> {
  const isStream = message.recipient_type === "stream" && message.stream_id !== undefined;
  const [recipients, stream, subscriberIds] = await Promise.all([
    getMessageRecipients(deps, message.id),
    streamRead ? streamRead.stream : isStream ? getStream(deps, message.realm_id, message.stream_id!) : Promise.resolve(undefined),
    streamRead ? streamRead.subscriberIds : isStream ? listStreamSubscriberIds(deps, message.stream_id!) : Promise.resolve([] as number[]),
  ]);
  if (!recipients.found) {
    const guess = isStream ? subscriberIds : (message.dm_user_ids ?? []);
    recipients.userIds = [...new Set(guess)].sort((a, b) => a - b);
  }
  const holders = new Set(recipients.userIds);
  const shared = stream !== undefined && !stream.deactivated && stream.history_public_to_subscribers;
  return {
    recipients,
    subscribersWithoutRows: shared ? subscriberIds.filter((id) => !holders.has(id)) : [],
    stream,
  };
}

/** Every user ID an event about the message goes to (row holders, then shared-history subscribers, plus extras). */
export function audienceUserIds(audience: MessageAudience, ...extra: number[]): number[] {
  return [...new Set([...audience.recipients.userIds, ...audience.subscribersWithoutRows, ...extra])];
}

/**
 * The receivers of an `update_message` event with each one's flags for the
 * message: row holders their own, shared-history subscribers without a row
 * `["read"]` (Zulip's `subscriber_info`).
 * @param rows the holders' UserMessage rows by user ID
 */
export function updateMessageReceivers(
  audience: MessageAudience,
  rows: ReadonlyMap<number, Pick<UserMessageRecord, "flags">>,
): { id: number; flags: string[] }[] {
  return [...audience.recipients.userIds, ...audience.subscribersWithoutRows].map((id) => {
    const row = rows.get(id);
    return { id, flags: row ? wireFlags(row.flags) : ["read"] };
  });
}
