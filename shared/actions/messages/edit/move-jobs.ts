import type { Deps } from "../../../deps.js";
import { getMessagesByIds, updateMessageItems } from "../../../data/messages.js";
import { getStream } from "../../../data/streams.js";
import { listStreamSubscriberIds } from "../../../data/subscriptions.js";
import type { JobOf, JobPayload } from "../../../deferred/jobs.js";
import { moveSliceToStream, retopic, type StreamMoveContext } from "./move-messages.js";
import { realmLinkifiers } from "../../../data/linkifiers.js";
import type { MessageRecord } from "../../../data/records/message.js";
import { topicLinks } from "../../../markdown/topic-links.js";

/**
 * The `move_messages` job: the part of a large topic rename or stream move
 * that the request hands on. A job carries the IDs still to move, moves a
 * bounded slice of them and enqueues one job with the rest (a chain), so
 * each job's work is bounded and one move never floods the queue or the
 * table with parallel jobs.
 */

/**
 * Payload of a `move_messages` job: the rest of a topic rename or of a
 * stream move (whose `realm_id`, `prev_stream_id` and `new_stream_id` say
 * so); its fields are documented in `shared/deferred/jobs.ts`.
 */
export type MoveMessagesPayload = JobPayload<"move_messages">;

/**
 * Most IDs one job carries (its chain's length in messages). Message IDs
 * below 10^12 take at most 13 bytes of JSON each, so a payload stays far
 * below SQS's 256 KB; a longer move starts several chains at once.
 */
export const MOVE_CHAIN_MAX_IDS = 10_000;

/** Messages a topic-rename job rewrites before chaining the rest (5 transactions of 100). */
const RENAME_SLICE = 500;

/**
 * Rows (UserMessage deletes and additions) a stream-move job writes before
 * chaining the rest: its slice is this budget over the rows a message is
 * expected to write (see {@link rowsWrittenPerMessage}), between 5 and 200
 * messages. Far inside the worker's timeout: 5,000 rows are 200
 * BatchWriteItems, and a slice's recipients Queries (one per message) run
 * 32 at a time.
 */
const STREAM_MOVE_ROW_BUDGET = 5000;

/**
 * The messages of one stream-move job slice, from the rows each message
 * costs (see {@link STREAM_MOVE_ROW_BUDGET}).
 * @param rowsPerMessage rows a moved message is expected to write (≥ 0)
 */
export function streamMoveSlice(rowsPerMessage: number): number {
  return Math.min(200, Math.max(5, Math.floor(STREAM_MOVE_ROW_BUDGET / Math.max(1, rowsPerMessage))));
}

/**
 * UserMessage rows a stream move is expected to write per message: a row
 * of a stream message names no stream, so only holders who leave (old
 * subscribers not subscribed to the destination: their rows are deleted)
 * and, into a destination with protected history, subscribers who join
 * (their `read` rows are added) cost a write; everyone else's row stays.
 * Holders beyond the subscribers (historical rows, former subscribers)
 * make the real number differ a little; it only sizes the work.
 */
export function rowsWrittenPerMessage(oldSubscribers: readonly number[], newSubscribers: readonly number[], historyPublic: boolean): number {
  const oldSet = new Set(oldSubscribers);
  const newSet = new Set(newSubscribers);
  const leaving = oldSubscribers.filter((id) => !newSet.has(id)).length;
  const joining = historyPublic ? 0 : newSubscribers.filter((id) => !oldSet.has(id)).length;
  return leaving + joining;
}

/**
 * The `move_messages` jobs that start a move's deferred part: one per
 * `perJob` IDs (at most {@link MOVE_CHAIN_MAX_IDS}); each job moves a slice
 * and chains the rest.
 */
export function moveMessagesJobs(
  base: Omit<MoveMessagesPayload, "message_ids">,
  messageIds: readonly number[],
  perJob: number = MOVE_CHAIN_MAX_IDS,
): JobOf<"move_messages">[] {
  const size = Math.min(perJob, MOVE_CHAIN_MAX_IDS);
  const jobs: JobOf<"move_messages">[] = [];
  for (let i = 0; i < messageIds.length; i += size) {
    const payload: MoveMessagesPayload = { message_ids: messageIds.slice(i, i + size), ...base };
    jobs.push({ kind: "move_messages", payload });
  }
  return jobs;
}

/** Tries of a rename slice against concurrent edits before the job fails (and SQS retries it). */
const RENAME_ATTEMPTS = 3;

/**
 * Gives messages a new topic (a slice of a large rename; conditioned
 * updates, 100 per transaction). UserMessage rows do not change: their keys
 * do not involve the topic. Messages already renamed (a redelivered job)
 * are skipped; messages a concurrent edit changed between read and write
 * are read again and retried.
 * @throws Error when messages still conflict after {@link RENAME_ATTEMPTS} tries (the job is retried)
 */
async function rewriteTopic(deps: Pick<Deps, "db" | "table">, p: MoveMessagesPayload, ids: number[]): Promise<void> {
  const entry = { user_id: p.user_id, timestamp: p.timestamp, prev_topic: p.prev_topic, topic: p.topic };
  // The organization's linkifiers, read once for the job when the first messages show which organization it is.
  let links: MessageRecord["topic_links"] | undefined;
  let pending = ids;
  for (let attempt = 0; attempt < RENAME_ATTEMPTS && pending.length > 0; attempt++) {
    const found = await getMessagesByIds(deps, pending);
    const realmId = p.realm_id ?? found.values().next().value?.realm_id;
    if (links === undefined && realmId !== undefined) links = await topicLinks(p.topic, (await realmLinkifiers(deps, realmId)).linkifiers);
    const changes = [...found.values()]
      .filter((m) => m.topic.toLowerCase() === p.prev_topic.toLowerCase())
      .map((m) => ({ before: m, after: retopic(m, p.topic, links ?? [], entry, p.timestamp) }));
    const applied = new Set((await updateMessageItems(deps, changes)).map((c) => c.before.id));
    pending = changes.filter((c) => !applied.has(c.before.id)).map((c) => c.before.id);
  }
  if (pending.length > 0) throw new Error(`move_messages: ${pending.length} messages kept changing; retrying the job`);
}

/**
 * Runs a `move_messages` job: moves the first slice of `message_ids`
 * (topic renames: {@link rewriteTopic}; stream moves: both streams'
 * subscribers re-read, then `moveSliceToStream`), then enqueues one job
 * with the rest. The next job is enqueued only after the slice is done, so
 * a failed slice is retried (by SQS) before the chain goes on; a duplicate
 * delivery finds its slice moved (nothing written) and enqueues a second
 * copy of the rest, which in turn finds its messages moved.
 *
 * Round trips: a rename slice 1 BatchGet round + 5 transactions; a stream
 * slice the streams and subscribers (1 round), then `moveBatchToStream`'s;
 * the chain's next job 1 SendMessageBatch.
 */
export async function runMoveMessages(deps: Deps, p: MoveMessagesPayload): Promise<void> {
  let slice: number;
  if (p.new_stream_id === undefined || p.prev_stream_id === undefined || p.realm_id === undefined) {
    slice = RENAME_SLICE;
    await rewriteTopic(deps, p, p.message_ids.slice(0, slice));
  } else {
    const [oldStream, newStream, oldSubs, newSubs, linkifiers] = await Promise.all([
      getStream(deps, p.realm_id, p.prev_stream_id),
      getStream(deps, p.realm_id, p.new_stream_id),
      listStreamSubscriberIds(deps, p.prev_stream_id),
      listStreamSubscriberIds(deps, p.new_stream_id),
      realmLinkifiers(deps, p.realm_id),
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
      topicLinks: await topicLinks(p.topic, linkifiers.linkifiers),
      oldSubscribers: new Set(oldSubs),
      newSubscribers: new Set(newSubs),
    };
    slice = streamMoveSlice(rowsWrittenPerMessage(oldSubs, newSubs, newStream.history_public_to_subscribers));
    await moveSliceToStream(deps, ctx, p.message_ids.slice(0, slice));
  }
  const rest = p.message_ids.slice(slice);
  if (rest.length > 0) await deps.deferred.enqueue([{ kind: "move_messages", payload: { ...p, message_ids: rest } }]);
}
