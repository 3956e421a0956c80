import type { Deps } from "../../deps.js";
import { batchGet } from "../../data/batch-get.js";
import { keys } from "../../data/keys.js";
import { getMessage, sendRecipientsItems } from "../../data/messages.js";
import { putPostings } from "../../data/search-index.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import { userMessageItem, wireFlags } from "../../data/user-messages.js";
import { batchWrite } from "../../data/batch-write.js";
import type { DeferredJob } from "../../deferred/deferred-work.js";
import { PUBLIC_STREAM_MARKER, writeEventToLogs, type ZulipEvent } from "../../events/publish.js";
import { messageTerms } from "../../narrow/search.js";
import { messageToWire } from "../../wire/message.js";
import { listStreamSubscriberIds } from "../../data/subscriptions.js";

/**
 * Deferred work of message sending (kinds registered in
 * `shared/deferred/jobs.ts`): the UserMessage rows and events of large
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
export interface WriteUserMessagesPayload {
  message_id: number;
  recipient_id: number;
  is_private: boolean;
  /** The message went to a public stream: its event also is in the realm's public log (see `PUBLIC_STREAM_MARKER`). */
  public_stream: boolean;
  /** Stored flags per recipient. */
  rows: { user_id: number; flags: string[] }[];
  /**
   * The recipients chunk this job writes (`RECIPIENTS#s<chunk>`): the job's
   * index + 1, chunk 0 being the sender's, written inline.
   */
  chunk: number;
}

/** Splits a large audience's rows into `write_user_messages` jobs. */
export function userMessageJobs(
  base: Omit<WriteUserMessagesPayload, "rows" | "chunk">,
  rows: WriteUserMessagesPayload["rows"],
): DeferredJob[] {
  const jobs: DeferredJob[] = [];
  for (let i = 0; i < rows.length; i += USER_MESSAGE_JOB_SIZE) {
    const payload: WriteUserMessagesPayload = {
      ...base,
      rows: rows.slice(i, i + USER_MESSAGE_JOB_SIZE),
      chunk: 1 + i / USER_MESSAGE_JOB_SIZE,
    };
    jobs.push({ kind: "write_user_messages", payload: payload as unknown as Record<string, unknown> });
  }
  return jobs;
}

/**
 * Runs a `write_user_messages` job: writes the rows that do not exist yet
 * and its recipients chunk
 * (SQS delivers at least once; a redelivered job must not reset flags a
 * user changed meanwhile, hence the BatchGet first), then the recipients'
 * `message` events — after the rows, so a client never learns of a message
 * it cannot yet flag.
 */
export async function runWriteUserMessages(deps: Deps, raw: Record<string, unknown>): Promise<void> {
  const p = raw as unknown as WriteUserMessagesPayload;
  const [message, existing] = await Promise.all([
    getMessage(deps, p.message_id),
    batchGet(deps, p.rows.map((r) => keys.userMessage(r.user_id, p.message_id))),
  ]);
  if (!message) return; // deleted since: nothing to deliver
  const have = new Set(existing.map((i) => Number(i.user_id)));
  const fresh: UserMessageRecord[] = p.rows
    .filter((r) => !have.has(r.user_id))
    .map((r) => ({
      user_id: r.user_id,
      message_id: p.message_id,
      recipient_id: p.recipient_id,
      is_private: p.is_private,
      flags: r.flags,
    }));
  // The job knows its slice: its recipients chunk is rewritten whole (idempotent on redelivery).
  await batchWrite(deps, [
    ...fresh.map(userMessageItem),
    ...(p.rows.length > 0 ? sendRecipientsItems(p.message_id, p.rows.map((r) => r.user_id), p.chunk ?? 1) : []),
  ]);
  const event: ZulipEvent = {
    type: "message",
    message: messageToWire(message, { applyMarkdown: true, clientGravatar: false }),
    raw_content: message.content,
    ...(p.public_stream ? { [PUBLIC_STREAM_MARKER]: true } : {}),
  };
  await writeEventToLogs(
    deps,
    event,
    p.rows.map((r) => ({ id: r.user_id, flags: wireFlags(r.flags) })),
  );
}

/** The `index_message` job of one message. */
export function indexMessageJob(realmId: number, messageId: number): DeferredJob {
  return { kind: "index_message", payload: { realm_id: realmId, message_id: messageId } };
}

/**
 * Runs an `index_message` job: reads the message as it is now (so the job
 * also serves after an edit) and writes one posting per distinct term of
 * its topic and content. Cost: one GetItem, ⌈terms / 25⌉ BatchWriteItem
 * calls (4 in flight). Postings of words an edit removed stay behind; search
 * re-checks every message, so they only cost a read.
 */
export async function runIndexMessage(deps: Deps, payload: Record<string, unknown>): Promise<void> {
  const message = await getMessage(deps, Number(payload.message_id));
  if (!message) return; // deleted since
  await putPostings(deps, message.realm_id, message.id, messageTerms(message.topic, message.content));
}

/**
 * Payload of an `expand_stream_message` job: what a large stream message's
 * recipients' rows need, so that the request never reads the subscriber list.
 */
export interface ExpandStreamMessagePayload {
  message_id: number;
  stream_id: number;
  recipient_id: number;
  public_stream: boolean;
  /** The sender's row was written by the request. */
  sender_id: number;
  mentioned_user_ids: number[];
  stream_wildcard: boolean;
  topic_wildcard: boolean;
  /**
   * With `topic_wildcard`: the topic's participants before the message
   * (read by the request, Zulip's `topic_participant_user_ids`); only they
   * get `topic_wildcard_mentioned`. Absent: nobody does. At most one ID per
   * user of the realm (≈ 7 bytes each in the JSON payload).
   */
  topic_participant_ids?: number[];
  /** Zulip's `limit_unread_user_ids` (resolution notices): when present, everyone else gets the message as read. */
  limit_unread_user_ids?: number[];
}

/** The job that expands a message to a large stream into its recipients' rows and events. */
export function expandStreamMessageJob(payload: ExpandStreamMessagePayload): DeferredJob {
  return { kind: "expand_stream_message", payload: payload as unknown as Record<string, unknown> };
}

/**
 * Runs an `expand_stream_message` job: reads the stream's subscribers (paged,
 * outside any request), computes each one's flags as the request does for
 * small streams (Zulip's `create_user_messages`: mentions; a stream
 * wildcard reaches every subscriber, a topic wildcard only the topic's
 * participants; `read` for those outside `limit_unread_user_ids`), runs the first `write_user_messages`
 * chunk itself — one queue hop fewer for the first recipients — and enqueues
 * the rest. A redelivered job is harmless: row writes skip existing rows.
 */
export async function runExpandStreamMessage(deps: Deps, raw: Record<string, unknown>): Promise<void> {
  const p = raw as unknown as ExpandStreamMessagePayload;
  const subscriberIds = await listStreamSubscriberIds(deps, p.stream_id);
  const mentioned = new Set(p.mentioned_user_ids);
  const participants = new Set(p.topic_participant_ids ?? []);
  const unreadFor = p.limit_unread_user_ids ? new Set(p.limit_unread_user_ids) : undefined;
  const rows = subscriberIds
    .filter((id) => id !== p.sender_id)
    .map((id) => {
      const flags: string[] = [];
      if (unreadFor && !unreadFor.has(id)) flags.push("read");
      if (mentioned.has(id)) flags.push("mentioned");
      if (p.stream_wildcard) flags.push("stream_wildcard_mentioned");
      if (p.topic_wildcard && participants.has(id)) flags.push("topic_wildcard_mentioned");
      return { user_id: id, flags };
    });
  const [first, ...rest] = userMessageJobs(
    { message_id: p.message_id, recipient_id: p.recipient_id, is_private: false, public_stream: p.public_stream },
    rows,
  );
  await Promise.all([
    rest.length > 0 ? deps.deferred.enqueue(rest) : Promise.resolve(),
    first ? runWriteUserMessages(deps, first.payload) : Promise.resolve(),
  ]);
}
