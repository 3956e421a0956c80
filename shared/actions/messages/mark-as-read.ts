import type { Deps } from "../../deps.js";
import { getMessagesByIds, messagesByTopic } from "../../data/messages.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { getUserMessages, unreadRowsPage, updateUserMessagesFlags } from "../../data/user-messages.js";
import type { JobOf, JobPayload } from "../../deferred/jobs.js";
import { InvalidChannelIdError, JsonableError } from "../../errors.js";
import { accessStream } from "../../access/stream.js";
import { clearingActivePush, enqueueWithRemovals, pushRemovalJob, readAndCleared } from "./push-removals.js";
import { notifyFlagAdded } from "./flags.js";

/**
 * Bulk read marking (https://zulip.com/api/mark-all-as-read,
 * https://zulip.com/api/mark-stream-as-read,
 * https://zulip.com/api/mark-topic-as-read; Zulip's `do_mark_all_as_read`,
 * `do_mark_stream_messages_as_read` in `zerver/actions/message_flags.py`).
 *
 * Every pass walks the user's sparse unread index (`unreadRowsPage`)
 * in ascending ID order — a user's unread rows, never their read history —
 * optionally filtered to one recipient (a stream) and topic, and rewrites
 * the rows with `read` (which drops them from the index). A request does up
 * to {@link INLINE_MARK_READ_LIMIT} rows; the rest goes to `mark_as_read`
 * jobs of {@link JOB_MARK_READ_LIMIT} rows each, which continue after the
 * last ID done, so 100,000 unread messages finish in a bounded number of
 * jobs with the same end state.
 */

/** Rows marked inside one request before the rest is deferred (10 TransactWriteItems calls). */
export const INLINE_MARK_READ_LIMIT = 1000;

/** Rows one `mark_as_read` job marks before enqueuing its successor. */
export const JOB_MARK_READ_LIMIT = 5000;

/** Index items read per Query page. */
const PAGE = 500;

/** What to mark: everything, one stream, one topic of a stream, or everything one user sent (Zulip's `do_mark_muted_user_messages_as_read`). */
export type MarkReadScope = MarkReadJobPayload["scope"];

/** Payload of a `mark_as_read` job: a user's scope, continued after the message ID `after`. */
export type MarkReadJobPayload = JobPayload<"mark_as_read">;

/** Result of one pass. */
interface PassResult {
  /** IDs whose rows were marked read, ascending. */
  changed: number[];
  /** Those of them whose notification was on the user's phone (`active_mobile_push_notification`, cleared by the same write), ascending. */
  removed: number[];
  /** No unread row of the scope is left after `last`. */
  done: boolean;
  /** The last ID examined (the next pass starts after it). */
  last: number;
}

/**
 * Marks up to `limit` unread rows of a scope as read, in ID order after
 * `after`: pages of {@link PAGE} unread rows (`unreadRowsPage`), written
 * with `updateUserMessagesFlags` (TransactWriteItems of 100 conditioned
 * updates that set `read` and drop the row from the unread index without
 * overwriting a concurrent change of another flag). Stream and topic
 * scopes read the messages of the unread stream rows (one BatchGet round
 * per page) to compare streams and topics (case-insensitively, as Zulip
 * does): rows do not name their stream; sender scopes read the messages of
 * all unread rows to compare senders.
 */
export async function markReadPass(
  deps: Pick<Deps, "db" | "table">,
  userId: number,
  scope: MarkReadScope,
  after: number,
  limit: number,
): Promise<PassResult> {
  const changed: number[] = [];
  const removed: number[] = [];
  let last = after;
  let start: Record<string, unknown> | undefined;
  let examined = 0;
  for (;;) {
    const page = await unreadRowsPage(deps, userId, after, PAGE, { startKey: start });
    let rows = page.rows;
    if ((scope.kind === "stream" || scope.kind === "topic") && rows.length > 0) {
      // Rows of stream messages name no stream (a move would rewrite them all): the messages do.
      const messages = await getMessagesByIds(deps, rows.filter((r) => !r.is_private).map((r) => r.message_id));
      const want = scope.kind === "topic" ? scope.topic.toLowerCase() : undefined;
      rows = rows.filter((r) => {
        const m = messages.get(r.message_id);
        return m !== undefined && m.stream_id === scope.stream_id && (want === undefined || m.topic.toLowerCase() === want);
      });
    }
    if (scope.kind === "sender" && rows.length > 0) {
      const messages = await getMessagesByIds(deps, rows.map((r) => r.message_id));
      rows = rows.filter((r) => messages.get(r.message_id)?.sender_id === scope.sender_id);
    }
    // The index is eventually consistent: skip rows already read.
    const candidates = rows.filter((r) => !r.flags.includes("read"));
    const unread = candidates.slice(0, limit - changed.length);
    const truncated = unread.length < candidates.length;
    if (unread.length > 0) {
      const clearing = clearingActivePush((_row, flags) => readAndCleared(flags));
      const marked = await updateUserMessagesFlags(deps, unread, clearing.change);
      changed.push(...marked.map((r) => r.message_id).sort((a, b) => a - b));
      removed.push(...(clearing.removed(marked).get(userId) ?? []));
    }
    examined += rows.length;
    if (unread.length > 0) last = unread[unread.length - 1]!.message_id;
    else if (page.stoppedAt !== undefined) last = Math.max(last, page.stoppedAt);
    if (truncated) return { changed, removed, done: false, last };
    // Exhausted: everything in the scope after `after` is done.
    if (!page.next) return { changed, removed, done: true, last };
    if (changed.length >= limit || examined >= limit * 4) return { changed, removed, done: false, last };
    start = page.next;
  }
}

/** The job that continues a scope after `after`. */
function markReadJob(payload: MarkReadJobPayload): JobOf<"mark_as_read"> {
  return { kind: "mark_as_read", payload };
}

/**
 * Marks a scope read: one inline pass, then deferred jobs if rows remain.
 *
 * Rows that had a notification on the user's phone lose the flag in the
 * same write and make one `push_removal` job per pass, enqueued beside the
 * event (with the successor job when there is one): no call when none had.
 *
 * Events: `mark_all_as_read` finishing inline sends one event with
 * `all: true` and no IDs (as Zulip); a deferred run sends one event per
 * pass with the IDs it marked and, for `all`, a final `all: true` event.
 * Stream, topic and sender scopes send one event per pass with the IDs
 * marked (none for a sender scope with nothing to mark).
 *
 * @returns whether everything was done inside the request
 */
export async function doMarkAsRead(deps: Deps, realm: RealmRecord, user: UserRecord, scope: MarkReadScope): Promise<boolean> {
  const pass = await markReadPass(deps, user.user_id, scope, 0, INLINE_MARK_READ_LIMIT);
  const removal = removalOf(realm.id, user.user_id, pass);
  if (pass.done) {
    // Zulip sends nothing when a muted user had no unread message.
    if (scope.kind === "sender" && pass.changed.length === 0) return true;
    await Promise.all([
      notifyFlagAdded(deps, user.user_id, "read", scope.kind === "all" ? [] : pass.changed, scope.kind === "all"),
      enqueueWithRemovals(deps, [], removal),
    ]);
    return true;
  }
  await Promise.all([
    notifyFlagAdded(deps, user.user_id, "read", pass.changed),
    enqueueWithRemovals(deps, [markReadJob({ realm_id: realm.id, user_id: user.user_id, scope, after: pass.last })], removal),
  ]);
  return false;
}

/** The `push_removal` job of a pass's rows that had a notification on the phone (none, or one). */
function removalOf(realmId: number, userId: number, pass: PassResult) {
  const job = pushRemovalJob(realmId, userId, pass.removed);
  return job ? [job] : [];
}

/**
 * Runs a `mark_as_read` job: one pass of {@link JOB_MARK_READ_LIMIT} rows,
 * its event, then either the successor job or (for `all`) the final
 * `all: true` event. Redelivery is harmless: marking read is idempotent.
 */
export async function runMarkAsRead(deps: Deps, p: MarkReadJobPayload): Promise<void> {
  const pass = await markReadPass(deps, p.user_id, p.scope, p.after, JOB_MARK_READ_LIMIT);
  const work: Promise<unknown>[] = [];
  if (pass.changed.length > 0) work.push(notifyFlagAdded(deps, p.user_id, "read", pass.changed));
  // The successor and this pass's removal go in one SendMessageBatch.
  work.push(enqueueWithRemovals(deps, pass.done ? [] : [markReadJob({ ...p, after: pass.last })], removalOf(p.realm_id, p.user_id, pass)));
  await Promise.all(work);
  if (pass.done && p.scope.kind === "all") await notifyFlagAdded(deps, p.user_id, "read", [], true);
}

/**
 * `POST /mark_all_as_read` (https://zulip.com/api/mark-all-as-read; Zulip's
 * `do_mark_all_as_read`).
 * @returns `complete`: false when the rest was handed to deferred work
 *   (clients may repeat the request; repeating is harmless)
 */
export async function doMarkAllAsRead(deps: Deps, realm: RealmRecord, user: UserRecord): Promise<{ complete: boolean }> {
  return { complete: await doMarkAsRead(deps, realm, user, { kind: "all" }) };
}

/**
 * `POST /mark_stream_as_read` (https://zulip.com/api/mark-stream-as-read;
 * Zulip's `do_mark_stream_messages_as_read`): the user's unread messages in
 * one stream.
 * @throws InvalidChannelIdError `Invalid channel ID` for a missing or invisible stream
 */
export async function doMarkStreamAsRead(deps: Deps, realm: RealmRecord, user: UserRecord, streamId: number): Promise<void> {
  await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelIdError() });
  await doMarkAsRead(deps, realm, user, { kind: "stream", stream_id: streamId });
}

/** How many of a topic's latest messages `mark_topic_as_read` looks at to tell whether the user has any. */
const TOPIC_PROBE = 100;

/**
 * `POST /mark_topic_as_read` (https://zulip.com/api/mark-topic-as-read;
 * Zulip's `do_mark_stream_messages_as_read` with a topic): the user's
 * unread messages in one topic. A topic with no message the user has a row
 * for among its latest 100 is refused as Zulip refuses topics the user has
 * no messages in.
 * @throws InvalidChannelIdError `Invalid channel ID` / JsonableError `No such topic '<topic>'`
 */
export async function doMarkTopicAsRead(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  streamId: number,
  topic: string,
): Promise<void> {
  await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelIdError() });
  const latest = await messagesByTopic(deps, streamId, topic, {}, { descending: true, max: TOPIC_PROBE });
  const rows = await getUserMessages(deps, user.user_id, latest.map((m) => m.id));
  if (rows.size === 0) throw new JsonableError(`No such topic '${topic}'`);
  await doMarkAsRead(deps, realm, user, {
    kind: "topic",
    stream_id: streamId,
    topic,
  });
}
