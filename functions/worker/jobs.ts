import type { WorkerDeps } from "../../shared/deps.js";
import { runSendEmail } from "../../shared/actions/mail/send-email.js";
import { runSesFeedback } from "../../shared/actions/mail/feedback.js";
import { runFanoutEvent } from "../../shared/events/publish.js";
import type { DeferredJob, JobKind, JobPayload } from "../../shared/deferred/jobs.js";
import { runIndexMessage, runExpandStreamMessage, runWriteUserMessages } from "../../shared/actions/messages/deferred.js";
import { runMarkAsRead } from "../../shared/actions/messages/mark-as-read.js";
import { runMoveMessages } from "../../shared/actions/messages/edit/move-jobs.js";
import { runDeleteMessages } from "../../shared/actions/messages/delete-messages.js";
import { runDeleteRealm } from "../../shared/actions/realms/delete-realm.js";
import { runSweepDemoOrganizations } from "../../shared/actions/realms/demo-organizations.js";
import { runReleaseAttachmentClaims } from "../../shared/actions/uploads/claim.js";
import { runSweepUnclaimedAttachments } from "../../shared/actions/uploads/sweep.js";
import { runThumbnail } from "../../shared/actions/uploads/thumbnails.js";
import { runSendScheduledMessage } from "../../shared/actions/scheduled-messages/deliver.js";

/**
 * A runner for every kind of deferred job, each taking its kind's payload
 * (the schema of `shared/deferred/jobs.ts`). A mapped type over the kinds,
 * so a kind without a runner, or a runner of the wrong payload, does not
 * compile. Runners get the worker's dependencies, file store included
 * (jobs delete attachments' files and make thumbnails); throwing makes SQS
 * retry the job.
 */
export type JobRunners = { [K in JobKind]: (deps: WorkerDeps, payload: JobPayload<K>) => Promise<void> };

/**
 * Every kind of deferred job and what runs it. The worker Lambda (and the
 * local stack's consumer) dispatch on `kind`.
 */
export const JOB_RUNNERS: JobRunners = {
  /** An event's copies for one slice of a large audience (`shared/events/publish.ts`). */
  fanout_event: runFanoutEvent,
  /** UserMessage rows, then `message` events, of a large audience (`shared/actions/messages/deferred.ts`). */
  write_user_messages: runWriteUserMessages,
  /** A large stream's subscribers read, their rows' flags computed, split into `write_user_messages` work (`shared/actions/messages/deferred.ts`). */
  expand_stream_message: runExpandStreamMessage,
  /** Search postings of one message (`shared/actions/messages/deferred.ts`). */
  index_message: runIndexMessage,
  /** Read marking beyond one request's share (`shared/actions/messages/mark-as-read.ts`). */
  mark_as_read: runMarkAsRead,
  /** The rest of a large topic rename or stream move, a slice per job, chained (`shared/actions/messages/edit/move-jobs.ts`). */
  move_messages: runMoveMessages,
  /** UserMessage rows of a deleted message beyond the request's share (`shared/actions/messages/delete-messages.ts`). */
  delete_messages: runDeleteMessages,
  /** One batch of deleting an organization's data, then the next (`shared/actions/realms/delete-realm.ts`). */
  delete_realm: runDeleteRealm,
  /** The demo-organization sweep, enqueued daily by the EventBridge schedule (`shared/actions/realms/demo-organizations.ts`). */
  sweep_demo_organizations: runSweepDemoOrganizations,
  /** A deleted message's attachment claims released, files only it claimed deleted (`shared/actions/uploads/claim.ts`). */
  release_attachment_claims: runReleaseAttachmentClaims,
  /** The daily sweep of uploads no message claimed for weeks (`shared/actions/uploads/sweep.ts`). */
  sweep_unclaimed_attachments: runSweepUnclaimedAttachments,
  /** An uploaded image's thumbnails, then its messages' placeholders (`shared/actions/uploads/thumbnails.ts`). */
  thumbnail: runThumbnail,
  /**
   * A public data export's archive, written to the files bucket (`shared/actions/realms/export-job.ts`).
   * Loaded when an export runs: the archive writer (tar, gzip, multipart upload) is no other job's.
   */
  realm_export: async (deps, payload) => (await import("../../shared/actions/realms/export-job.js")).runRealmExport(deps, payload),
  /** A deleted export's tarball removed (`shared/actions/realms/export-job.ts`). */
  delete_export_tarball: async (deps, payload) =>
    (await import("../../shared/actions/realms/export-job.js")).runDeleteExportTarball(deps, payload),
  /** A scheduled message looked at again: re-enqueued until due, then claimed and sent (`shared/actions/scheduled-messages/deliver.ts`). */
  send_scheduled_message: runSendScheduledMessage,
  /** One rendered email handed to the mailer (`shared/actions/mail/send-email.ts`). */
  send_email: runSendEmail,
  /** A bounce or complaint from SES: permanent ones suppress the addresses (`shared/actions/mail/feedback.ts`). */
  ses_feedback: runSesFeedback,
  /**
   * A received email posted to the stream its address names (`shared/actions/email-gateway/process-email.ts`).
   * Loaded when an email arrives: the MIME parser is no other job's.
   */
  incoming_email: async (deps, payload) =>
    (await import("../../shared/actions/email-gateway/process-email.js")).runIncomingEmail(deps, payload),
  /**
   * Who of a message's recipients is notified: idle ones' messages join their email batch, push jobs for those with
   * phones (`shared/actions/notifications/`). Loaded on demand (a module the `write_user_messages` job loads so too):
   * the decision and its push half stay out of the cold start, whose budget is full.
   */
  message_notifications: async (deps, payload) =>
    (await import("../../shared/actions/notifications/message-notifications.js")).runMessageNotifications(deps, payload),
  /**
   * One user's missed-message batch mailed when it ends (`shared/actions/notifications/missed-message-emails.ts`).
   * Loaded when a batch ends (once per batch, not per message): the email builder is no other job's.
   */
  missed_message_emails: async (deps, payload) =>
    (await import("../../shared/actions/notifications/missed-message-emails.js")).runMissedMessageEmails(deps, payload),
  /**
   * One message to one user's phones through the push notification service (`shared/actions/push/push-notification.ts`).
   * Loaded when a push is due: the payload builder and its HTML reader are no other job's (the cold start's budget is full).
   */
  push_notification: async (deps, payload) =>
    (await import("../../shared/actions/push/push-notification.js")).runPushNotification(deps, payload),
  /** Notifications of read or deleted messages cleared from a user's phones (`shared/actions/push/push-removal.ts`). */
  push_removal: async (deps, payload) => (await import("../../shared/actions/push/push-removal.js")).runPushRemoval(deps, payload),
  /** A deactivated user's devices deleted and unregistered at the service (`shared/actions/push/devices.ts`). */
  push_unregister_all: async (deps, payload) => (await import("../../shared/actions/push/devices.js")).runPushUnregisterAll(deps, payload),
  /**
   * Organizations and user counts reported to the push notification service; its plan status stored (`shared/actions/push/server-data.ts`).
   * Loaded when the job runs (daily, and after the server registers): the upload is no other job's.
   */
  push_bouncer_update: async (deps) => (await import("../../shared/actions/push/server-data.js")).runPushBouncerUpdate(deps),
};

/**
 * Runs one job (parsed with `parseDeferredJob`) with its kind's runner.
 * Generic in the kind so that the runner looked up and the payload given
 * to it are of the same kind, without a cast.
 * @param runners the registry; tests pass one with some runners replaced
 */
export async function runJob(deps: WorkerDeps, job: DeferredJob, runners: JobRunners = JOB_RUNNERS): Promise<void> {
  await dispatch(runners, deps, job);
}

/** The kind-correlated call: `runners[K]` takes `JobPayload<K>` (TypeScript's mapped-type indexing). */
function dispatch<K extends JobKind>(runners: JobRunners, deps: WorkerDeps, job: { kind: K; payload: JobPayload<K> }): Promise<void> {
  const run: JobRunners[K] = runners[job.kind];
  return run(deps, job.payload);
}
