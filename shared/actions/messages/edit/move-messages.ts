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
import { deleteUserMessages, putUserMessages } from "../../../data/user-messages.js";
import { forEachLimit } from "../../../data/transact-updates.js";
import { getUsersByIds } from "../../../data/users.js";
import { canReadStreamHistory } from "../../../domain/stream-permissions.js";
import { notifyDeleteMessages } from "../delete-messages.js";

/**
 * Rewriting moved messages (Zulip's `do_update_message` with a new topic
 * or a `new_stream`), a batch at a time; `move-jobs.ts` runs the batches
 * of large moves.
 */

/**
 * One message with a new topic and a history entry (topic renames).
 * @param links the new topic's `topic_links` (`topicLinks` with the organization's linkifiers)
 * @param now UNIX seconds
 */
export function retopic(
  m: MessageRecord,
  topic: string,
  links: MessageRecord["topic_links"],
  entry: Record<string, unknown>,
  now: number,
): MessageRecord {
  return {
    ...m,
    topic,
    topic_links: links,
    edit_history: [{ ...entry }, ...(m.edit_history ?? [])],
    last_edit_timestamp: now,
  };
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
  /** The topic's `topic_links` with the organization's linkifiers. */
  topicLinks: MessageRecord["topic_links"];
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
  /** Messages whose conditioned item update met a concurrent edit, move or delete (nothing of theirs written). */
  conflicted: number[];
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
    topic_links: ctx.topicLinks,
    edit_history: [entry, ...(m.edit_history ?? [])],
    last_edit_timestamp: ctx.timestamp,
  };
}

/**
 * Whether `m`'s item was moved by this very move (its newest history entry
 * is the one {@link restream} writes for `ctx`): a job that failed after
 * writing the item and before its rows is run again, and must finish the
 * rows of such messages rather than skip them.
 */
function movedByThisMove(m: MessageRecord, ctx: Omit<StreamMoveContext, "oldSubscribers" | "newSubscribers">): boolean {
  const head = m.edit_history?.[0] as Record<string, unknown> | undefined;
  return (
    m.stream_id === ctx.newStream.stream_id &&
    head !== undefined &&
    head.user_id === ctx.actorId &&
    head.timestamp === ctx.timestamp &&
    head.prev_stream === ctx.oldStream.stream_id &&
    head.stream === ctx.newStream.stream_id
  );
}

/**
 * Moves a batch of messages to `ctx.newStream` (Zulip's rules for who keeps
 * what, refined by the recipients items, which also know users who
 * unsubscribed since):
 *
 * - the message items are updated first, each on the condition that it is
 *   still as read (see `updateMessageItem`), index keys included; only the
 *   messages so moved (and `rewritten`, moved by the caller or by an earlier
 *   try of the same job) go on; the others are returned as `conflicted`;
 * - a row holder subscribed to the destination keeps the row as it is: a
 *   stream message's row names neither stream nor topic, so nothing of it
 *   changes (docs/data-model.md "Moving messages");
 * - a holder not subscribed who cannot read the destination's history
 *   (private destination, guests) loses the row and the message
 *   (`delete_message`);
 * - a holder not subscribed who can read it (public destination) loses the
 *   row if they were an old-stream subscriber (Zulip keeps unread rows to
 *   subscribed streams), else keeps it (a historical row);
 * - a destination with protected history gives its subscribers without a
 *   row a `read` row (Zulip's `subs_gaining_usermessages`); with shared
 *   history they read the messages from the stream, no row needed;
 * - the recipients items follow the rows, after them: a run cut short
 *   between the two finds the recipients as they were and redoes the same
 *   row writes, all of which are idempotent (delete, put).
 *
 * Round trips: message items (1 round per 400), the recipients (1 Query per
 * message, 32 in flight), the holders' roles (1), then row deletes and
 * additions (BatchWriteItem) in parallel, then the recipients items of the
 * messages whose holders changed. A move between streams with the same
 * subscribers writes the message items and nothing else.
 */
export async function moveBatchToStream(
  deps: Deps,
  ctx: StreamMoveContext,
  messages: MessageRecord[],
  rewritten: MessageRecord[] = [],
): Promise<StreamMoveOutcome> {
  const candidates = messages.filter((m) => m.stream_id === ctx.oldStream.stream_id && m.recipient_type === "stream");
  // Items first, conditioned on being as read: a message another edit,
  // move or delete got to meanwhile is returned to the caller to re-read.
  const applied = await updateMessageItems(deps, candidates.map((m) => ({ before: m, after: restream(m, ctx) })));
  const appliedIds = new Set(applied.map((c) => c.before.id));
  const conflicted = candidates.filter((m) => !appliedIds.has(m.id)).map((m) => m.id);
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
  const drop: { user_id: number; message_id: number }[] = [];
  const gained: UserMessageRecord[] = [];
  const recipientChanges: (() => Promise<void>)[] = [];
  for (const m of batch) {
    const r = recipients.get(m.id)!;
    const dropped: number[] = [];
    for (const id of r.userIds) {
      if (ctx.newSubscribers.has(id)) {
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
        kept.add(id);
      }
    }
    if (dropped.length > 0) recipientChanges.push(() => removeMessageRecipients(deps, r, m.id, dropped));
    if (gainRows) {
      const have = new Set(r.userIds);
      const fresh = [...ctx.newSubscribers].filter((id) => !have.has(id));
      for (const id of fresh) {
        gained.push({ user_id: id, message_id: m.id, is_private: false, flags: ["read"] });
      }
      if (fresh.length > 0) recipientChanges.push(() => addMessageRecipients(deps, m.id, fresh));
    }
  }
  await Promise.all([
    deleteUserMessages(deps, drop),
    putUserMessages(deps, gained),
  ]);
  await forEachLimit(recipientChanges, 32, (change) => change());
  return { lost, kept, conflicted };
}

/** Tries of one slice of a `move_messages` job against concurrent edits before the job fails (and SQS retries it). */
const SLICE_ATTEMPTS = 3;

/**
 * Moves the messages `messageIds` of a stream move (one slice of a
 * `move_messages` job): reads them, moves those still in the old stream
 * and finishes the rows of those an earlier try of this move already
 * moved (see {@link moveBatchToStream}), re-reading and retrying messages
 * a concurrent edit got to first, then tells users who lost messages.
 * Messages no longer in the old stream for another reason (moved or
 * deleted by someone else meanwhile) are left where that change put them.
 * A duplicate delivery writes nothing new: every message is found moved,
 * its recipients already as the move left them.
 * @throws Error when messages still conflict after {@link SLICE_ATTEMPTS} tries (the job is retried)
 */
export async function moveSliceToStream(deps: Deps, ctx: StreamMoveContext, messageIds: number[]): Promise<void> {
  let pending = messageIds;
  const lost = new Map<number, number[]>();
  for (let attempt = 0; attempt < SLICE_ATTEMPTS && pending.length > 0; attempt++) {
    const found = [...(await getMessagesByIds(deps, pending)).values()];
    const resumed = attempt === 0 ? found.filter((m) => movedByThisMove(m, ctx)) : [];
    const outcome = await moveBatchToStream(deps, ctx, found, resumed);
    for (const [userId, ids] of outcome.lost) lost.set(userId, [...(lost.get(userId) ?? []), ...ids]);
    pending = outcome.conflicted;
  }
  await notifyLostAccess(deps, ctx, lost);
  if (pending.length > 0) throw new Error(`move_messages: ${pending.length} messages kept changing; retrying the job`);
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
