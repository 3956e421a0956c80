import type { Deps } from "../../shared/deps.js";
import { writeEventToLogs, type ZulipEvent } from "../../shared/events/publish.js";
import type { DeferredJob } from "../../shared/deferred/deferred-work.js";
import { runIndexMessage, runExpandStreamMessage, runWriteUserMessages } from "../../shared/actions/messages/deferred.js";
import { runMarkAsRead } from "../../shared/actions/messages/mark-as-read.js";
import { runMoveMessages } from "../../shared/actions/messages/move-messages.js";
import { runDeleteMessages } from "../../shared/actions/messages/delete-messages.js";

/** A deferred job's runner: does the work of one job; throwing makes SQS retry it. */
export type JobRunner = (deps: Deps, payload: Record<string, unknown>) => Promise<void>;

/**
 * Every kind of deferred job and what runs it. The worker Lambda (and the
 * local stack's consumer) dispatch on `kind`.
 */
export const JOB_RUNNERS: Record<string, JobRunner> = {
  fanout_event: async (deps, payload) => {
    await writeEventToLogs(deps, payload.event as ZulipEvent, payload.users as { id: number; flags?: string[] }[]);
  },
  /** UserMessage rows, then `message` events, of a large audience (`shared/actions/messages/deferred.ts`). */
  write_user_messages: runWriteUserMessages,
  expand_stream_message: runExpandStreamMessage,
  /** Search postings of one message (`shared/actions/messages/deferred.ts`). */
  index_message: runIndexMessage,
  /** Read marking beyond one request's share (`shared/actions/messages/mark-as-read.ts`). */
  mark_as_read: runMarkAsRead,
  /** The rest of a large topic rename or stream move (`shared/actions/messages/move-messages.ts`). */
  move_messages: runMoveMessages,
  /** UserMessage rows of a deleted message beyond the request's share (`shared/actions/messages/delete-messages.ts`). */
  delete_messages: runDeleteMessages,
};

/**
 * Runs one job.
 * @throws Error for an unknown kind (a deploy mismatch; SQS redrives it to the dead-letter queue)
 */
export async function runJob(deps: Deps, job: DeferredJob): Promise<void> {
  const runner = JOB_RUNNERS[job.kind];
  if (!runner) throw new Error(`Unknown deferred job kind: ${job.kind}`);
  await runner(deps, job.payload);
}
