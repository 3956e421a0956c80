import type { FilesDeps } from "../../deps.js";
import type { JobOf } from "../../deferred/jobs.js";
import { unclaimedAttachmentsBefore } from "../../data/attachments.js";
import { doDeleteAttachment } from "./attachments.js";

/**
 * Weeks an upload no message claims is kept (Zulip's
 * `delete_old_unclaimed_attachments` default: 5 weeks).
 */
export const UNCLAIMED_ATTACHMENT_WEEKS = 5;

/** Attachments one sweep job deletes before it hands the rest to a new job. */
export const SWEEP_BATCH = 500;

/** The deferred job of the daily sweep (what the EventBridge schedule enqueues). */
export const SWEEP_UNCLAIMED_ATTACHMENTS_JOB: JobOf<"sweep_unclaimed_attachments"> = { kind: "sweep_unclaimed_attachments", payload: {} };

/**
 * Deletes uploads that no message has claimed for
 * {@link UNCLAIMED_ATTACHMENT_WEEKS} weeks (Zulip's
 * `delete_old_unclaimed_attachments`), oldest first: one Query of the
 * unclaimed index, then each file's item (only if still unclaimed), bytes
 * and `attachment` `remove` event. A full batch enqueues the next job.
 * @returns how many were deleted
 */
export async function doDeleteOldUnclaimedAttachments(deps: FilesDeps): Promise<number> {
  const cutoff = Math.floor(deps.clock.now() / 1000) - UNCLAIMED_ATTACHMENT_WEEKS * 7 * 24 * 3600;
  const expired = await unclaimedAttachmentsBefore(deps, cutoff, SWEEP_BATCH);
  const deleted = await Promise.all(
    expired.filter((a) => a.messages.length === 0).map((a) => doDeleteAttachment(deps, a, { onlyIfUnclaimed: true })),
  );
  if (expired.length === SWEEP_BATCH) await deps.deferred.enqueue([SWEEP_UNCLAIMED_ATTACHMENTS_JOB]);
  return deleted.filter(Boolean).length;
}

/** Runs the sweep as a deferred job (`sweep_unclaimed_attachments`). */
export async function runSweepUnclaimedAttachments(deps: FilesDeps): Promise<void> {
  await doDeleteOldUnclaimedAttachments(deps);
}
