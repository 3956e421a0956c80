import type { Deps } from "../../../deps.js";
import { getMessageRecipients, getMessagesByIds, updateMessageItem } from "../../../data/messages.js";
import type { MessageRecord } from "../../../data/records/message.js";
import type { RealmRecord } from "../../../data/records/realm.js";
import type { StreamRecord } from "../../../data/records/stream.js";
import type { UserRecord } from "../../../data/records/user.js";
import { getStream } from "../../../data/streams.js";
import { listStreamSubscriberIds } from "../../../data/subscriptions.js";
import { userMessageRowsOf, wireFlags } from "../../../data/user-messages.js";
import { JsonableError } from "../../../errors.js";
import type { EventOf } from "../../../events/types.js";
import { topicLinks } from "../../../markdown/topic-links.js";
import { realmLinkifiers } from "../../../data/linkifiers.js";
import { messagesToMove, type PropagateMode } from "./messages-to-move.js";
import { moveMessagesJobs, rowsWrittenPerMessage } from "./move-jobs.js";
import { moveBatchToStream, notifyLostAccess, restream, type StreamMoveContext, type StreamMoveOutcome } from "./move-messages.js";
import { doMoveUserTopics } from "../../user-topics/move-user-topics.js";
import { sendMoveNotices, type NoticeRequest } from "./move-notices.js";
import { sendUpdateMessageEvent } from "../../../events/per-user.js";

/** Most messages a stream move rewrites inside the request. */
const INLINE_STREAM_MOVE_LIMIT = 100;

/**
 * Most UserMessage rows a stream move writes inside the request (see
 * `rowsWrittenPerMessage`: rows of holders who stay are not written): a
 * move whose messages would write more moves only the target message in
 * the request and hands every other message to `move_messages` jobs.
 */
const INLINE_STREAM_MOVE_ROWS = 2000;

/** Most IDs in one `update_message` event (≈ 8 bytes each in the event item, far below DynamoDB's 400 KB). */
const EVENT_MAX_IDS = 10_000;

/**
 * Zulip's `do_update_message` with a `new_stream`, after every check passed
 * (see `checkUpdateMessage`): moves `message` (and with `mode` its topic's
 * later or all messages) to `newStream`, with the topic `topic` when given,
 * then posts the move notices (see `sendMoveNotices`).
 *
 * Every check and the full set of messages to move (only those the user
 * may access) come before the first write. A small move (at most
 * {@link INLINE_STREAM_MOVE_LIMIT} messages and
 * {@link INLINE_STREAM_MOVE_ROWS} rows) is written in the request; a larger
 * one moves the target message (the commit point) and hands every other
 * message to chained `move_messages` jobs (`move-jobs.ts`), enqueued right
 * after the target's write, which reach the same end state and send their
 * own `delete_message` events. The request's round trips do not grow with
 * the move apart from the topic read (one Query per 1,000 messages).
 *
 * The `update_message` event lists every moved ID at once (clients move
 * them immediately; more than {@link EVENT_MAX_IDS} IDs go in several
 * events of that many), with `stream_id`, `new_stream_id`, `orig_subject`,
 * `subject` (only when the topic changed), `propagate_mode` and each
 * receiver's flags for `message_id`.
 * @param now UNIX seconds
 * @returns false when `message` changed since it was read (nothing written: the caller starts over)
 * @throws MoveMessagesTimeLimitError; JsonableError `Invalid message(s)` when the old stream is gone
 */
export async function doMoveMessagesToStream(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  move: { newStream: StreamRecord; topic: string | undefined; mode: PropagateMode },
  req: NoticeRequest,
  now: number,
): Promise<boolean> {
  const { newStream, mode } = move;
  const [oldStream, moving] = await Promise.all([
    getStream(deps, realm.id, message.stream_id!),
    messagesToMove(deps, realm, user, message, mode, { topic: move.topic, stream: true }, now),
  ]);
  if (!oldStream) throw new JsonableError("Invalid message(s)");
  const newTopic = move.topic ?? message.topic;
  const links = await topicLinks(newTopic, (await realmLinkifiers(deps, realm.id)).linkifiers);
  const ctx = {
    realmId: realm.id,
    actorId: user.user_id,
    timestamp: now,
    oldStream,
    newStream,
    prevTopic: message.topic,
    topic: newTopic,
    topicLinks: links,
  };
  if (!(await moveToStream(deps, realm, user, message, ctx, moving.ids, mode))) return false;
  const where = { oldStream, oldTopic: message.topic, newStream, newTopic };
  await sendMoveNotices(deps, realm, user, where, mode, moving, req);
  if (mode === "change_all") await doMoveUserTopics(deps, realm, where);
  return true;
}

/**
 * The writes and events of a checked stream move (see
 * {@link doMoveMessagesToStream}).
 * @param movedIds every ID to move, ascending, the target included
 * @returns false when the target changed since it was read (nothing written)
 */
async function moveToStream(
  deps: Deps,
  realm: RealmRecord,
  actor: UserRecord,
  target: MessageRecord,
  ctx: Omit<StreamMoveContext, "oldSubscribers" | "newSubscribers">,
  movedIds: number[],
  mode: PropagateMode,
): Promise<boolean> {
  const [oldSubs, newSubs] = await Promise.all([
    listStreamSubscriberIds(deps, ctx.oldStream.stream_id),
    listStreamSubscriberIds(deps, ctx.newStream.stream_id),
  ]);
  const full: StreamMoveContext = { ...ctx, oldSubscribers: new Set(oldSubs), newSubscribers: new Set(newSubs) };
  const rowsPerMessage = rowsWrittenPerMessage(oldSubs, newSubs, ctx.newStream.history_public_to_subscribers);
  const small = movedIds.length <= INLINE_STREAM_MOVE_LIMIT && movedIds.length * rowsPerMessage <= INLINE_STREAM_MOVE_ROWS;

  // The target's rows as they are before the move, for the event's flags.
  const targetRecipients = await getMessageRecipients(deps, target.id);
  const targetRows = await userMessageRowsOf(deps, target.id, targetRecipients.userIds);

  // The target first and alone: its conditioned write decides whether this
  // edit goes ahead (a concurrent change makes the caller start over).
  if (!(await updateMessageItem(deps, { before: target, after: restream(target, full) }))) return false;
  const others = movedIds.filter((id) => id !== target.id);
  let outcome: StreamMoveOutcome;
  if (small) {
    const found = await getMessagesByIds(deps, others);
    outcome = await moveBatchToStream(deps, full, [...found.values()], [target]);
    // Messages a concurrent edit got to first: a job reads and moves them again.
    if (outcome.conflicted.length > 0) await deps.deferred.enqueue(moveJobs(realm, actor, ctx, outcome.conflicted));
  } else {
    // The rest goes to the queue before anything else is written, so a
    // request cut short from here on leaves the jobs to finish the move.
    // The target comes last: by then its rows are done and the job finds
    // nothing to write, unless this request ended before writing them.
    await deps.deferred.enqueue(moveJobs(realm, actor, ctx, [...others, target.id]));
    outcome = await moveBatchToStream(deps, full, [], [target]);
  }

  // update_message: everyone who still sees the messages; shared-history
  // subscribers of the old stream without a row get `["read"]` (Zulip's `subscriber_info`).
  const receivers = new Set<number>(outcome.kept);
  if (ctx.oldStream.history_public_to_subscribers) for (const id of oldSubs) receivers.add(id);
  for (const id of targetRecipients.userIds) if (!outcome.lost.has(id)) receivers.add(id);
  for (const id of outcome.lost.keys()) receivers.delete(id);
  const event: Omit<EventOf<"update_message">, "flags"> = {
    type: "update_message",
    user_id: actor.user_id,
    edit_timestamp: ctx.timestamp,
    message_id: target.id,
    message_ids: [],
    rendering_only: false,
    stream_name: ctx.oldStream.name,
    stream_id: ctx.oldStream.stream_id,
    new_stream_id: ctx.newStream.stream_id,
    propagate_mode: mode,
    orig_subject: ctx.prevTopic,
    ...(ctx.topic !== ctx.prevTopic ? { subject: ctx.topic, topic_links: ctx.topicLinks } : {}),
  };
  const flagged = [...receivers].map((id) => {
    const row = targetRows.get(id);
    // A kept row reports its flags; a dropped row (an old subscriber of a
    // public destination) or no row reports `["read"]`, as Zulip does.
    const rowKept = row !== undefined && (full.newSubscribers.has(id) || !full.oldSubscribers.has(id));
    return { id, flags: rowKept ? wireFlags(row.flags) : ["read"] };
  });
  await Promise.all([
    ...idSlices(movedIds).map((ids) => sendUpdateMessageEvent(deps, { ...event, message_ids: ids }, flagged)),
    notifyLostAccess(deps, full, outcome.lost),
  ]);
  return true;
}

/** The `move_messages` jobs of a stream move's deferred part (see `runMoveMessages`). */
function moveJobs(
  realm: RealmRecord,
  actor: UserRecord,
  ctx: Omit<StreamMoveContext, "oldSubscribers" | "newSubscribers">,
  ids: number[],
) {
  const base = {
    topic: ctx.topic,
    prev_topic: ctx.prevTopic,
    user_id: actor.user_id,
    timestamp: ctx.timestamp,
    realm_id: realm.id,
    prev_stream_id: ctx.oldStream.stream_id,
    new_stream_id: ctx.newStream.stream_id,
  };
  return moveMessagesJobs(base, ids);
}

/** Moved IDs in slices of {@link EVENT_MAX_IDS}, one `update_message` event each. */
function idSlices(ids: number[]): number[][] {
  const slices: number[][] = [];
  for (let i = 0; i < ids.length; i += EVENT_MAX_IDS) slices.push(ids.slice(i, i + EVENT_MAX_IDS));
  return slices;
}
