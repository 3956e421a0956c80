import type { Deps } from "../../deps.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import { ACTIVE_PUSH_FLAG } from "../../data/user-messages.js";
import type { DeferredJob, JobOf } from "../../deferred/jobs.js";
import { removalMessageIds } from "../../domain/push-payload.js";

/**
 * Collecting the removals of push notifications (Zulip's
 * `do_clear_mobile_push_notifications_for_ids`): wherever rows are read,
 * deleted or lose the mention that notified, the write that changes them
 * also clears `active_mobile_push_notification`, and the IDs of the rows
 * that had it become one `push_removal` job per user (`shared/actions/push/push-removal.ts`
 * runs it). Kept free of the push service's client so that the request
 * paths that read messages load nothing of it.
 */


/**
 * The `push_removal` job of messages that had a notification on the user's
 * phone and were read or deleted, or undefined when there are none (the
 * newest 200 IDs, ascending: Zulip's `MAX_APNS_MESSAGE_IDS`).
 */
export function pushRemovalJob(realmId: number, userId: number, messageIds: readonly number[]): JobOf<"push_removal"> | undefined {
  if (messageIds.length === 0) return undefined;
  return { kind: "push_removal", payload: { realm_id: realmId, user_id: userId, message_ids: removalMessageIds(messageIds) } };
}

/** One `push_removal` job per user of a map user ID → message IDs (users without IDs get none). */
export function pushRemovalJobs(realmId: number, idsByUser: ReadonlyMap<number, readonly number[]>): JobOf<"push_removal">[] {
  const jobs: JobOf<"push_removal">[] = [];
  for (const [userId, ids] of idsByUser) {
    const job = pushRemovalJob(realmId, userId, ids);
    if (job) jobs.push(job);
  }
  return jobs;
}

/** A row's flags read: `read` added and the notification flag gone (one write does both). */
export function readAndCleared(flags: readonly string[]): string[] {
  const out = flags.filter((f) => f !== ACTIVE_PUSH_FLAG);
  return out.includes("read") ? out : [...out, "read"];
}

/** Groups rows' message IDs by user: user ID → message IDs, ascending. */
export function idsByUser(rows: Iterable<Pick<UserMessageRecord, "user_id" | "message_id">>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const { user_id, message_id } of rows) {
    const list = out.get(user_id);
    if (list) list.push(message_id);
    else out.set(user_id, [message_id]);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

/** The rows (of any users) that carry the notification flag, by user: what a deletion of them removes. */
export function activePushIdsByUser(rows: Iterable<UserMessageRecord>): Map<number, number[]> {
  return idsByUser([...rows].filter((r) => r.flags.includes(ACTIVE_PUSH_FLAG)));
}

/** A flag change (the `change` argument of `updateUserMessagesFlags`) and the removals it made. */
export interface ClearingChange {
  /** The wrapped change: the caller's new flags, then the notification flag dropped where `clears` says so. */
  change: (row: UserMessageRecord, flags: string[]) => string[];
  /**
   * The message IDs, by user, of the `changed` rows (as `updateUserMessagesFlags`
   * returned them) whose flags carried the notification flag when their
   * written change was computed.
   */
  removed: (changed: readonly UserMessageRecord[]) => Map<number, number[]>;
}

const rowKey = (row: Pick<UserMessageRecord, "user_id" | "message_id">) => `${row.user_id}:${row.message_id}`;

/**
 * Wraps a flag change so that it also clears the notification flag and
 * remembers which rows had it. A conflicting concurrent write makes
 * `updateUserMessagesFlags` re-read a row and call `change` again: the
 * last call per row is the one whose result was written, so it is the one
 * remembered, and a row another writer cleared meanwhile is not reported
 * twice.
 * @param change the caller's change (e.g. `read` added)
 * @param clears which rows lose the flag (default all); others keep it and are never reported
 */
export function clearingActivePush(
  change: (row: UserMessageRecord, flags: string[]) => string[],
  clears: (row: UserMessageRecord) => boolean = () => true,
): ClearingChange {
  const had = new Map<string, boolean>();
  return {
    change: (row, flags) => {
      const next = change(row, flags);
      if (!clears(row)) return next;
      had.set(rowKey(row), flags.includes(ACTIVE_PUSH_FLAG));
      return next.filter((f) => f !== ACTIVE_PUSH_FLAG);
    },
    removed: (changed) => idsByUser(changed.filter((row) => had.get(rowKey(row)) === true)),
  };
}

/**
 * Enqueues the removal jobs beside the jobs an action enqueues anyway (one
 * SendMessageBatch call for up to 10), or alone; nothing when there are
 * neither (the common case costs no call).
 */
export async function enqueueWithRemovals(
  deps: Pick<Deps, "deferred">,
  jobs: readonly DeferredJob[],
  removals: readonly DeferredJob[],
): Promise<void> {
  const all = [...jobs, ...removals];
  if (all.length > 0) await deps.deferred.enqueue(all);
}
