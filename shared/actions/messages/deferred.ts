import type { Deps } from "../../deps.js";
import { alertWordsOfUsers } from "../../data/alert-words.js";
import { messageById, putRowsAndRecipients } from "../../data/messages.js";
import { putPostings } from "../../data/search-index.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import { userMessageRowsOf } from "../../data/user-messages.js";
import type { JobOf, JobPayload } from "../../deferred/jobs.js";
import { usersWithAlertWords } from "../../domain/alert-words.js";
import { messageTerms } from "../../narrow/search.js";
import { listStreamSubscriberIds } from "../../data/subscriptions.js";
import { notifyMessage } from "./notify-message.js";

/**
 * Deferred work of message sending (kinds registered in
 * `functions/worker/jobs.ts`): the UserMessage rows and events of large
 * audiences, and the search postings of every message.
 */

/** Recipients per `write_user_messages` job (20 BatchWriteItem calls for rows, as many for events; ≈ 15 KB of payload). */
export const USER_MESSAGE_JOB_SIZE = 500;

/**
 * Payload of a `write_user_messages` job. It carries no event: the job
 * rebuilds the `message` event from the stored message, which keeps every
 * payload a few kilobytes (SQS takes 256 KB per message and per batch of
 * ten) whatever the content's size.
 */
export type WriteUserMessagesPayload = JobPayload<"write_user_messages">;

/** Splits a large audience's rows into the payloads of `write_user_messages` jobs of {@link USER_MESSAGE_JOB_SIZE} rows. */
export function userMessagePayloads(
  base: Omit<WriteUserMessagesPayload, "rows" | "chunk">,
  rows: WriteUserMessagesPayload["rows"],
): WriteUserMessagesPayload[] {
  const payloads: WriteUserMessagesPayload[] = [];
  for (let i = 0; i < rows.length; i += USER_MESSAGE_JOB_SIZE) {
    payloads.push({ ...base, rows: rows.slice(i, i + USER_MESSAGE_JOB_SIZE), chunk: 1 + i / USER_MESSAGE_JOB_SIZE });
  }
  return payloads;
}

/**
 * Runs a `write_user_messages` job: writes the rows that do not exist yet
 * and its recipients chunk
 * (SQS delivers at least once; a redelivered job must not reset flags a
 * user changed meanwhile, hence the BatchGet first), then the recipients'
 * `message` events — after the rows, so a client never learns of a message
 * it cannot yet flag.
 */
export async function runWriteUserMessages(deps: Deps, p: WriteUserMessagesPayload): Promise<void> {
  const [message, existing] = await Promise.all([
    messageById(deps, p.message_id),
    userMessageRowsOf(deps, p.message_id, p.rows.map((r) => r.user_id)),
  ]);
  if (!message) return; // deleted since: nothing to deliver
  const fresh: UserMessageRecord[] = p.rows
    .filter((r) => !existing.has(r.user_id))
    .map((r) => ({
      user_id: r.user_id,
      message_id: p.message_id,
      recipient_id: p.recipient_id,
      is_private: p.is_private,
      flags: r.flags,
    }));
  // The job knows its slice: its recipients chunk is rewritten whole (idempotent on redelivery).
  await putRowsAndRecipients(deps, p.message_id, fresh, p.rows.map((r) => r.user_id), p.chunk ?? 1);
  // This job is its slice's fan-out: every copy now; and its slice's
  // notifications decision (new rows only: a redelivery notifies nobody twice).
  await Promise.all([
    notifyMessage(deps, message, p.rows, { inline: true, ...(p.public_stream ? { publicStream: { written: true } } : {}) }),
    // Loaded on demand: the `messages` Lambda bundles this module for its job builders only.
    import("../notifications/message-notifications.js").then(({ doMessageNotifications }) =>
      doMessageNotifications(
        deps,
        { realm_id: message.realm_id, message_id: message.id, sender_id: message.sender_id, stream_id: message.stream_id, topic: message.topic },
        fresh,
      ),
    ),
  ]);
}

/** Payload of an `index_message` job. */
export type IndexMessagePayload = JobPayload<"index_message">;

/** The `index_message` job of one message. */
export function indexMessageJob(realmId: number, messageId: number): JobOf<"index_message"> {
  const payload: IndexMessagePayload = { realm_id: realmId, message_id: messageId };
  return { kind: "index_message", payload };
}

/**
 * Runs an `index_message` job: reads the message as it is now (so the job
 * also serves after an edit) and writes one posting per distinct term of
 * its topic and content. Cost: one GetItem, ⌈terms / 25⌉ BatchWriteItem
 * calls (4 in flight). Postings of words an edit removed stay behind; search
 * re-checks every message, so they only cost a read.
 */
export async function runIndexMessage(deps: Deps, payload: IndexMessagePayload): Promise<void> {
  const message = await messageById(deps, Number(payload.message_id));
  if (!message) return; // deleted since
  await putPostings(deps, message.realm_id, message.id, messageTerms(message.topic, message.content));
}

/**
 * Payload of an `expand_stream_message` job: what a large stream message's
 * recipients' rows need, so that the request never reads the subscriber list.
 */
export type ExpandStreamMessagePayload = JobPayload<"expand_stream_message">;

/** The job that expands a message to a large stream into its recipients' rows and events. */
export function expandStreamMessageJob(payload: ExpandStreamMessagePayload): JobOf<"expand_stream_message"> {
  return { kind: "expand_stream_message", payload };
}

/** Subscribers whose alert words occur in the message (its content and their words read in parallel). */
async function alertedSubscribers(deps: Deps, messageId: number, subscriberIds: number[]): Promise<Set<number>> {
  const [message, words] = await Promise.all([messageById(deps, messageId), alertWordsOfUsers(deps, subscriberIds)]);
  return message ? usersWithAlertWords(message.content, words) : new Set<number>();
}

/**
 * Runs an `expand_stream_message` job: reads the stream's subscribers (paged,
 * outside any request), computes each one's flags as the request does for
 * small streams (Zulip's `create_user_messages`: mentions; a stream
 * wildcard reaches every subscriber, a topic wildcard only the topic's
 * participants; `read` for those outside `limit_unread_user_ids` and for
 * those in `muted_by_ids`; `has_alert_word` when the payload says
 * `alert_words`), runs the first `write_user_messages`
 * chunk itself — one queue hop fewer for the first recipients — and enqueues
 * the rest. A redelivered job is harmless: row writes skip existing rows.
 */
export async function runExpandStreamMessage(deps: Deps, p: ExpandStreamMessagePayload): Promise<void> {
  const subscriberIds = await listStreamSubscriberIds(deps, p.stream_id);
  const alerted = p.alert_words ? await alertedSubscribers(deps, p.message_id, subscriberIds) : new Set<number>();
  const mentioned = new Set(p.mentioned_user_ids);
  const participants = new Set(p.topic_participant_ids ?? []);
  const unreadFor = p.limit_unread_user_ids ? new Set(p.limit_unread_user_ids) : undefined;
  const mutedBy = new Set(p.muted_by_ids ?? []);
  const rows = subscriberIds
    .filter((id) => id !== p.sender_id)
    .map((id) => {
      const flags: string[] = [];
      if ((unreadFor && !unreadFor.has(id)) || mutedBy.has(id)) flags.push("read");
      if (mentioned.has(id)) flags.push("mentioned");
      if (alerted.has(id)) flags.push("has_alert_word");
      if (p.stream_wildcard) flags.push("stream_wildcard_mentioned");
      if (p.topic_wildcard && participants.has(id)) flags.push("topic_wildcard_mentioned");
      return { user_id: id, flags };
    });
  const [first, ...rest] = userMessagePayloads(
    { message_id: p.message_id, recipient_id: p.recipient_id, is_private: false, public_stream: p.public_stream },
    rows,
  );
  await Promise.all([
    rest.length > 0 ? deps.deferred.enqueue(rest.map((payload) => ({ kind: "write_user_messages", payload }))) : Promise.resolve(),
    first ? runWriteUserMessages(deps, first) : Promise.resolve(),
  ]);
}
