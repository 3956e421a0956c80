import type { Deps } from "../../../deps.js";
import {
  addMessageRecipients,
  getMessageRecipients,
  getMessagesByIds,
  removeMessageRecipients,
  updateMessageItems,
} from "../../../data/messages.js";
import type { MessageRecipients, MessageRecord } from "../../../data/records/message.js";
import type { StreamRecord } from "../../../data/records/stream.js";
import type { UserMessageRecord } from "../../../data/records/user-message.js";
import type { UserRecord } from "../../../data/records/user.js";
import { getStream } from "../../../data/streams.js";
import { listStreamSubscriberIds } from "../../../data/subscriptions.js";
import { deleteUserMessages, putUserMessages, rekeyUserMessages } from "../../../data/user-messages.js";
import { forEachLimit } from "../../../data/transact-updates.js";
import { getUsersByIds } from "../../../data/users.js";
import type { DeferredJob } from "../../../deferred/deferred-work.js";
import { canReadStreamHistory } from "../../../domain/stream-permissions.js";
import { topicLinks } from "../../../markdown/index.js";
import { notifyDeleteMessages } from "../delete-messages.js";

/**
 * Rewriting moved messages (Zulip's `do_update_message` with a new topic
 * or a `new_stream`), a batch at a time, and the `move_messages` job that
 * finishes large moves of either kind.
 */

/**
 * Payload of a `move_messages` job: the rest of a topic rename or of a
 * stream move (whose `realm_id`, `prev_stream_id` and `new_stream_id` say
 * so).
 */
export type MoveMessagesPayload = {
  message_ids: number[];
  /** The topic after the move (equal to `prev_topic` for a stream move that keeps the topic). */
  topic: string;
  user_id: number;
  /** UNIX seconds of the edit (same in every history entry of one move). */
  timestamp: number;
  prev_topic: string;
  /** Stream moves only. */
  realm_id?: number;
  prev_stream_id?: number;
  new_stream_id?: number;
};

/** The `move_messages` jobs of a move's deferred part, `perJob` messages each. */
export function moveMessagesJobs(
  base: Omit<MoveMessagesPayload, "message_ids">,
  messageIds: readonly number[],
  perJob: number,
): DeferredJob[] {
  const jobs: DeferredJob[] = [];
  for (let i = 0; i < messageIds.length; i += perJob) {
    const payload: MoveMessagesPayload = { message_ids: messageIds.slice(i, i + perJob), ...base };
    jobs.push({ kind: "move_messages", payload });
  }
  return jobs;
}

/**
 * One message with a new topic and a history entry (topic renames).
 * @param now UNIX seconds
 */
export function retopic(m: MessageRecord, topic: string, entry: Record<string, unknown>, now: number): MessageRecord {
  return {
    ...m,
    topic,
    topic_links: topicLinks(topic),
    edit_history: [{ ...entry }, ...(m.edit_history ?? [])],
    last_edit_timestamp: now,
  };
}

/**
 * Gives messages a new topic (the rest of a large rename; conditioned
 * updates, 100 per transaction). UserMessage rows do not change: their keys
 * do not involve the topic. Messages already renamed (a redelivered job),
 * or changed meanwhile, are skipped.
 */
async function rewriteTopic(deps: Pick<Deps, "db" | "table">, p: MoveMessagesPayload): Promise<void> {
  const found = await getMessagesByIds(deps, p.message_ids);
  const entry = { user_id: p.user_id, timestamp: p.timestamp, prev_topic: p.prev_topic, topic: p.topic };
  const changes = [...found.values()]
    .filter((m) => m.topic.toLowerCase() === p.prev_topic.toLowerCase())
    .map((m) => ({ before: m, after: retopic(m, p.topic, entry, p.timestamp) }));
  await updateMessageItems(deps, changes);
}

/** Everything a batch of a stream move needs besides the messages. */
export interface StreamMoveContext {
  realmId: number;
  actorId: number;
  /** UNIX seconds of the edit. */
  timestamp: number;
  oldStream: StreamRecord;
  newStream: StreamRecord;
  prevTopic: string;
  topic: string;
  /** Active subscribers of the old and new streams. */
  oldSubscribers: Set<number>;
  newSubscribers: Set<number>;
}

/** What one batch did to its recipients, for the events. */
export interface StreamMoveOutcome {
  /** Users who can no longer see the messages (their rows are gone): user → message IDs. */
  lost: Map<number, number[]>;
  /** Users who still see the messages: row holders kept, and old subscribers whose rows went (Zulip's `subs_losing_usermessages`). */
  kept: Set<number>;
}

/** A message as it is after the move: new stream, recipient, display recipient and topic, one history entry. */
export function restream(m: MessageRecord, ctx: Omit<StreamMoveContext, "oldSubscribers" | "newSubscribers">): MessageRecord {
  const topicChanged = ctx.topic !== ctx.prevTopic;
  const topic = topicChanged ? ctx.topic : m.topic;
  const entry: Record<string, unknown> = {
    user_id: ctx.actorId,
    timestamp: ctx.timestamp,
    prev_stream: m.stream_id,
    stream: ctx.newStream.stream_id,
    ...(topicChanged ? { prev_topic: m.topic, topic } : {}),
  };
  return {
    ...m,
    stream_id: ctx.newStream.stream_id,
    recipient_id: ctx.newStream.recipient_id,
    display_recipient: ctx.newStream.name,
    topic,
    topic_links: topicLinks(topic),
    edit_history: [entry, ...(m.edit_history ?? [])],
    last_edit_timestamp: ctx.timestamp,
  };
}

/**
 * Moves a batch of messages to `ctx.newStream` (Zulip's rules for who keeps
 * what, refined by the recipients items, which also know users who
 * unsubscribed since):
 *
 * - the message items are updated first, each on the condition that it is
 *   still as read (see `updateMessageItem`), index keys included; only the
 *   messages so moved (and `rewritten`, moved by the caller) go on;
 * - a row holder subscribed to the destination keeps the row, re-keyed to
 *   the new recipient (see `rekeyUserMessages`);
 * - a holder not subscribed who cannot read the destination's history
 *   (private destination, guests) loses the row and the message
 *   (`delete_message`);
 * - a holder not subscribed who can read it (public destination) loses the
 *   row if they were an old-stream subscriber (Zulip keeps unread rows to
 *   subscribed streams), else keeps it re-keyed (a historical row);
 * - a destination with protected history gives its subscribers without a
 *   row a `read` row (Zulip's `subs_gaining_usermessages`); with shared
 *   history they read the messages from the stream, no row needed;
 * - the recipients items follow the rows.
 *
 * Redelivered jobs skip messages no longer in the old stream. Round trips:
 * message items (1 round per 400), the recipients (1), the holders'
 * roles (1), then row updates (UpdateItems, 32 in flight), deletes and additions in
 * parallel.
 */
export async function moveBatchToStream(
  deps: Deps,
  ctx: StreamMoveContext,
  messages: MessageRecord[],
  rewritten: MessageRecord[] = [],
): Promise<StreamMoveOutcome> {
  const candidates = messages.filter((m) => m.stream_id === ctx.oldStream.stream_id && m.recipient_type === "stream");
  // Items first, conditioned on being as read: the rows of a message
  // another edit, move or delete got to meanwhile are left to that change.
  const applied = await updateMessageItems(deps, candidates.map((m) => ({ before: m, after: restream(m, ctx) })));
  const batch = [...rewritten, ...applied.map((c) => c.before)];
  const recipients = new Map<number, MessageRecipients>();
  await forEachLimit(batch, 32, async (m) => {
    recipients.set(m.id, await getMessageRecipients(deps, m.id));
  });
  const holders = new Set<number>();
  for (const r of recipients.values()) for (const id of r.userIds) holders.add(id);
  const outsiders = [...holders].filter((id) => !ctx.newSubscribers.has(id));
  const users = outsiders.length > 0 ? await getUsersByIds(deps, ctx.realmId, outsiders) : new Map<number, UserRecord>();
  const canRead = (id: number) => {
    const u = users.get(id);
    return u !== undefined && canReadStreamHistory(u, ctx.newStream, undefined);
  };
  const gainRows = !ctx.newStream.history_public_to_subscribers;

  const lost = new Map<number, number[]>();
  const kept = new Set<number>();
  const rekey: { user_id: number; message_id: number }[] = [];
  const drop: { user_id: number; message_id: number }[] = [];
  const gained: UserMessageRecord[] = [];
  const removals: Promise<void>[] = [];
  for (const m of batch) {
    const r = recipients.get(m.id)!;
    const dropped: number[] = [];
    for (const id of r.userIds) {
      if (ctx.newSubscribers.has(id)) {
        rekey.push({ user_id: id, message_id: m.id });
        kept.add(id);
      } else if (!canRead(id)) {
        drop.push({ user_id: id, message_id: m.id });
        dropped.push(id);
        lost.set(id, [...(lost.get(id) ?? []), m.id]);
      } else if (ctx.oldSubscribers.has(id)) {
        drop.push({ user_id: id, message_id: m.id });
        dropped.push(id);
        kept.add(id);
      } else {
        rekey.push({ user_id: id, message_id: m.id });
        kept.add(id);
      }
    }
    if (dropped.length > 0) removals.push(removeMessageRecipients(deps, r, m.id, dropped));
    if (gainRows) {
      const have = new Set(r.userIds);
      const fresh = [...ctx.newSubscribers].filter((id) => !have.has(id));
      for (const id of fresh) {
        gained.push({ user_id: id, message_id: m.id, recipient_id: ctx.newStream.recipient_id, is_private: false, flags: ["read"] });
      }
      if (fresh.length > 0) removals.push(addMessageRecipients(deps, m.id, fresh));
    }
  }
  await Promise.all([
    rekeyUserMessages(deps, rekey, ctx.newStream.recipient_id),
    deleteUserMessages(deps, drop),
    putUserMessages(deps, gained),
    ...removals,
  ]);
  return { lost, kept };
}

/** Sends `delete_message` to users who lost messages in a stream move, one event per distinct ID list. */
export async function notifyLostAccess(deps: Deps, ctx: StreamMoveContext, lost: Map<number, number[]>): Promise<void> {
  const groups = new Map<string, { ids: number[]; users: number[] }>();
  for (const [userId, ids] of lost) {
    const sorted = [...ids].sort((a, b) => a - b);
    const key = JSON.stringify(sorted);
    const group = groups.get(key);
    if (group) group.users.push(userId);
    else groups.set(key, { ids: sorted, users: [userId] });
  }
  const where = { stream_id: ctx.oldStream.stream_id, topic: ctx.prevTopic };
  await Promise.all([...groups.values()].map((g) => notifyDeleteMessages(deps, g.ids, where, g.users)));
}

/**
 * Runs a `move_messages` job. Topic renames rewrite the messages' items
 * (`rewriteTopic`); stream moves re-read both streams' subscribers and run
 * {@link moveBatchToStream}, then tell users who lost messages. Redelivery
 * is harmless: messages already moved are skipped.
 */
export async function runMoveMessages(deps: Deps, p: MoveMessagesPayload): Promise<void> {
  if (p.new_stream_id === undefined || p.prev_stream_id === undefined || p.realm_id === undefined) {
    await rewriteTopic(deps, p);
    return;
  }
  const [oldStream, newStream, oldSubs, newSubs, found] = await Promise.all([
    getStream(deps, p.realm_id, p.prev_stream_id),
    getStream(deps, p.realm_id, p.new_stream_id),
    listStreamSubscriberIds(deps, p.prev_stream_id),
    listStreamSubscriberIds(deps, p.new_stream_id),
    getMessagesByIds(deps, p.message_ids),
  ]);
  if (!oldStream || !newStream) return; // a stream was deleted meanwhile: nothing sensible to do
  const ctx: StreamMoveContext = {
    realmId: p.realm_id,
    actorId: p.user_id,
    timestamp: p.timestamp,
    oldStream,
    newStream,
    prevTopic: p.prev_topic,
    topic: p.topic,
    oldSubscribers: new Set(oldSubs),
    newSubscribers: new Set(newSubs),
  };
  const outcome = await moveBatchToStream(deps, ctx, [...found.values()]);
  await notifyLostAccess(deps, ctx, outcome.lost);
}
