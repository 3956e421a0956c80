import type { Deps } from "../../deps.js";
import { batchGet } from "../../data/batch-get.js";
import { recordOf } from "../../data/items.js";
import { keys } from "../../data/keys.js";
import type { MessageRecipients, MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import type { UserRecord } from "../../data/records/user.js";
import { addMessageRecipients, getMessageRecipients, getMessagesByIds, removeMessageRecipients, updateMessage, updateMessages } from "../../data/messages.js";

import { getStream } from "../../data/streams.js";
import { listStreamSubscriberIds } from "../../data/subscriptions.js";
import { deleteUserMessages, putUserMessages, rekeyUserMessages, wireFlags } from "../../data/user-messages.js";
import { forEachLimit } from "../../data/transact-updates.js";
import { getUsersByIds } from "../../data/users.js";
import type { DeferredJob } from "../../deferred/deferred-work.js";
import { canReadStreamHistory } from "../../domain/stream-permissions.js";
import { ConcurrentMessageEditError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import { topicLinks } from "../../markdown/index.js";

/**
 * Moving stream messages to another stream (Zulip's `do_update_message`
 * with a `new_stream`; spec "Edit a message" `stream_id`), and the
 * `move_messages` job that finishes large moves of either kind.
 */

/** Messages a stream move rewrites inside the request; the rest goes to `move_messages` jobs. */
export const INLINE_STREAM_MOVE_LIMIT = 100;

/** Messages per `move_messages` job of a stream move (each with its recipients and rows). */
export const STREAM_MOVE_JOB_SIZE = 100;

/** Payload of a `move_messages` job: the rest of a topic rename or of a stream move. */
export interface MoveMessagesPayload {
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
}

/** One message with a new topic and a history entry (topic renames). */
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
export async function rewriteTopic(deps: Pick<Deps, "db" | "table">, p: MoveMessagesPayload): Promise<void> {
  const found = await getMessagesByIds(deps, p.message_ids);
  const entry = { user_id: p.user_id, timestamp: p.timestamp, prev_topic: p.prev_topic, topic: p.topic };
  const changes = [...found.values()]
    .filter((m) => m.topic.toLowerCase() === p.prev_topic.toLowerCase())
    .map((m) => ({ before: m, after: retopic(m, p.topic, entry, p.timestamp) }));
  await updateMessages(deps, changes);
}

/** Everything a batch of a stream move needs besides the messages. */
export interface StreamMoveContext {
  realmId: number;
  actorId: number;
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
function restream(m: MessageRecord, ctx: StreamMoveContext): MessageRecord {
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
 *   still as read (see `updateMessage`), index keys included; only the
 *   messages so moved (and `rewritten`, moved by the caller) go on;
 * - a row holder subscribed to the destination keeps the row, re-keyed to
 *   the new recipient (gsi1 `UMREC#user#recipient`);
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
  const applied = await updateMessages(deps, candidates.map((m) => ({ before: m, after: restream(m, ctx) })));
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

/** Sends `delete_message` to users who lost messages, one event per distinct ID list. */
export async function notifyLostAccess(deps: Deps, ctx: StreamMoveContext, lost: Map<number, number[]>): Promise<void> {
  const groups = new Map<string, number[]>();
  for (const [userId, ids] of lost) {
    const key = JSON.stringify([...ids].sort((a, b) => a - b));
    groups.set(key, [...(groups.get(key) ?? []), userId]);
  }
  await Promise.all(
    [...groups.entries()].map(([ids, users]) =>
      sendEvent(
        deps,
        {
          type: "delete_message",
          message_ids: JSON.parse(ids) as number[],
          message_type: "stream",
          stream_id: ctx.oldStream.stream_id,
          topic: ctx.prevTopic,
        },
        users,
      ),
    ),
  );
}

/**
 * Moves messages to another stream after every check passed (see
 * `checkUpdateMessage`): the first {@link INLINE_STREAM_MOVE_LIMIT} now,
 * the rest through `move_messages` jobs with the same end state and their
 * own `delete_message` events. One `update_message` event lists every moved
 * ID at once (clients move them immediately), with `stream_id`,
 * `new_stream_id`, `orig_subject`, `subject` (only when the topic changed),
 * `propagate_mode` and each receiver's flags for `message_id`.
 *
 * @param movedIds every ID to move, ascending, the target included
 */
export async function doMoveMessagesToStream(
  deps: Deps,
  realm: RealmRecord,
  actor: UserRecord,
  target: MessageRecord,
  ctx: Omit<StreamMoveContext, "oldSubscribers" | "newSubscribers" | "oldStream"> & { oldStream: StreamRecord },
  movedIds: number[],
  mode: string,
): Promise<void> {
  const [oldSubs, newSubs] = await Promise.all([
    listStreamSubscriberIds(deps, ctx.oldStream.stream_id),
    listStreamSubscriberIds(deps, ctx.newStream.stream_id),
  ]);
  const full: StreamMoveContext = { ...ctx, oldSubscribers: new Set(oldSubs), newSubscribers: new Set(newSubs) };
  const inline = movedIds.slice(0, INLINE_STREAM_MOVE_LIMIT);
  const deferred = movedIds.slice(INLINE_STREAM_MOVE_LIMIT);

  // The target's rows as they are before the move, for the event's flags.
  const targetRecipients = await getMessageRecipients(deps, target.id);
  const targetRows = new Map<number, UserMessageRecord>();
  for (const item of await batchGet(deps, targetRecipients.userIds.map((id) => keys.userMessage(id, target.id)))) {
    const um = recordOf<UserMessageRecord>(item);
    targetRows.set(um.user_id, um);
  }

  // The target first and alone: its conditioned write decides whether this
  // edit goes ahead (a concurrent change makes the caller start over).
  if (!(await updateMessage(deps, { before: target, after: restream(target, full) }))) throw new ConcurrentMessageEditError();
  const found = await getMessagesByIds(deps, inline.filter((id) => id !== target.id));
  const outcome = await moveBatchToStream(deps, full, [...found.values()], [target]);

  const jobs: DeferredJob[] = [];
  for (let i = 0; i < deferred.length; i += STREAM_MOVE_JOB_SIZE) {
    const payload: MoveMessagesPayload = {
      message_ids: deferred.slice(i, i + STREAM_MOVE_JOB_SIZE),
      topic: ctx.topic,
      prev_topic: ctx.prevTopic,
      user_id: actor.user_id,
      timestamp: ctx.timestamp,
      realm_id: realm.id,
      prev_stream_id: ctx.oldStream.stream_id,
      new_stream_id: ctx.newStream.stream_id,
    };
    jobs.push({ kind: "move_messages", payload: payload as unknown as Record<string, unknown> });
  }

  // update_message: everyone who still sees the messages; shared-history
  // subscribers of the old stream without a row get `["read"]` (Zulip's `subscriber_info`).
  const receivers = new Set<number>(outcome.kept);
  if (ctx.oldStream.history_public_to_subscribers) for (const id of oldSubs) receivers.add(id);
  for (const id of targetRecipients.userIds) if (!outcome.lost.has(id)) receivers.add(id);
  for (const id of outcome.lost.keys()) receivers.delete(id);
  const base: Record<string, unknown> & { type: string } = {
    type: "update_message",
    user_id: actor.user_id,
    edit_timestamp: ctx.timestamp,
    message_id: target.id,
    message_ids: movedIds,
    rendering_only: false,
    stream_name: ctx.oldStream.name,
    stream_id: ctx.oldStream.stream_id,
    new_stream_id: ctx.newStream.stream_id,
    propagate_mode: mode,
    orig_subject: ctx.prevTopic,
    ...(ctx.topic !== ctx.prevTopic ? { subject: ctx.topic, topic_links: topicLinks(ctx.topic) } : {}),
  };
  const groups = new Map<string, number[]>();
  for (const id of receivers) {
    const row = targetRows.get(id);
    // A kept row reports its flags; a dropped row (an old subscriber of a
    // public destination) or no row reports `["read"]`, as Zulip does.
    const rowKept = row !== undefined && (full.newSubscribers.has(id) || !full.oldSubscribers.has(id));
    const flags = rowKept ? wireFlags(row.flags) : ["read"];
    const key = JSON.stringify(flags);
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  await Promise.all([
    ...[...groups.entries()].map(([flags, ids]) => sendEvent(deps, { ...base, flags: JSON.parse(flags) as string[] }, ids)),
    notifyLostAccess(deps, full, outcome.lost),
    jobs.length > 0 ? deps.deferred.enqueue(jobs) : Promise.resolve(),
  ]);
}

/**
 * Runs a `move_messages` job. Topic renames rewrite the messages' items
 * (`rewriteTopic`); stream moves re-read both streams' subscribers and run
 * {@link moveBatchToStream}, then tell users who lost messages. Redelivery
 * is harmless: messages already moved are skipped.
 */
export async function runMoveMessages(deps: Deps, raw: Record<string, unknown>): Promise<void> {
  const p = raw as unknown as MoveMessagesPayload;
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
