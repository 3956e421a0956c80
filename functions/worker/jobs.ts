import type { Deps } from "../../shared/deps.js";
import { runFanoutEvent } from "../../shared/events/publish.js";
import type { DeferredJob } from "../../shared/deferred/deferred-work.js";
import { runIndexMessage, runExpandStreamMessage, runWriteUserMessages } from "../../shared/actions/messages/deferred.js";
import { runMarkAsRead } from "../../shared/actions/messages/mark-as-read.js";
import { runMoveMessages } from "../../shared/actions/messages/edit/move-jobs.js";
import { runDeleteMessages } from "../../shared/actions/messages/delete-messages.js";
import { runDeleteRealm } from "../../shared/actions/realms/delete-realm.js";
import { runSweepDemoOrganizations } from "../../shared/actions/realms/demo-organizations.js";
import { runReleaseAttachmentClaims } from "../../shared/actions/uploads/claim.js";
import { runSweepUnclaimedAttachments } from "../../shared/actions/uploads/sweep.js";
import { runThumbnail } from "../../shared/actions/uploads/thumbnails.js";

/** A deferred job's runner: does the work of one job; throwing makes SQS retry it. */
export type JobRunner = (deps: Deps, payload: Record<string, unknown>) => Promise<void>;

/**
 * A runner of one kind's typed payload. The payload comes back from SQS as
 * the JSON its producer enqueued (each kind's producer builds it with the
 * same type), so this is where it takes its type again.
 */
function runs<P extends Record<string, unknown>>(run: (deps: Deps, payload: P) => Promise<void>): JobRunner {
  return (deps, payload) => run(deps, payload as P);
}

/**
 * Every kind of deferred job and what runs it. The worker Lambda (and the
 * local stack's consumer) dispatch on `kind`.
 */
export const JOB_RUNNERS: Record<string, JobRunner> = {
  /** An event's copies for one slice of a large audience (`shared/events/publish.ts`). */
  fanout_event: runs(runFanoutEvent),
  /** UserMessage rows, then `message` events, of a large audience (`shared/actions/messages/deferred.ts`). */
  write_user_messages: runs(runWriteUserMessages),
  /** A large stream's subscribers read, their rows' flags computed, split into `write_user_messages` work (`shared/actions/messages/deferred.ts`). */
  expand_stream_message: runs(runExpandStreamMessage),
  /** Search postings of one message (`shared/actions/messages/deferred.ts`). */
  index_message: runs(runIndexMessage),
  /** Read marking beyond one request's share (`shared/actions/messages/mark-as-read.ts`). */
  mark_as_read: runs(runMarkAsRead),
  /** The rest of a large topic rename or stream move, a slice per job, chained (`shared/actions/messages/edit/move-jobs.ts`). */
  move_messages: runs(runMoveMessages),
  /** UserMessage rows of a deleted message beyond the request's share (`shared/actions/messages/delete-messages.ts`). */
  delete_messages: runs(runDeleteMessages),
  /** One batch of deleting an organization's data, then the next (`shared/actions/realms/delete-realm.ts`). */
  delete_realm: runs(runDeleteRealm),
  /** The demo-organization sweep, enqueued daily by the EventBridge schedule (`shared/actions/realms/demo-organizations.ts`). */
  sweep_demo_organizations: runs(runSweepDemoOrganizations),
  /** A deleted message's attachment claims released, files only it claimed deleted (`shared/actions/uploads/claim.ts`). */
  release_attachment_claims: runs(runReleaseAttachmentClaims),
  /** The daily sweep of uploads no message claimed for weeks (`shared/actions/uploads/sweep.ts`). */
  sweep_unclaimed_attachments: runs(runSweepUnclaimedAttachments),
  /** An uploaded image's thumbnails, then its messages' placeholders (`shared/actions/uploads/thumbnails.ts`). */
  thumbnail: runs(runThumbnail),
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
