import type { Deps } from "../../deps.js";
import type { JobOf, JobPayload } from "../../deferred/jobs.js";
import type { RenderResult } from "../../markdown/types.js";

/*
 * The `thumbnail` job's producers, apart from its runner
 * (`thumbnails.ts`): the functions that enqueue it (uploads, sends, edits)
 * stay free of image decoding.
 */

/** Payload of the `thumbnail` job: an organization's uploads to thumbnail (and whose messages to re-render). */
export type ThumbnailJobPayload = JobPayload<"thumbnail">;

/**
 * The deferred job that makes uploads' thumbnails and re-renders the
 * messages showing their placeholders (Zulip's `thumbnail` queue). Enqueued
 * when an image is uploaded, and again after a message is sent or edited
 * with a placeholder, so a message claimed while the thumbnail was being
 * made is rewritten too.
 */
export function thumbnailJob(realmId: number, pathIds: string[]): JobOf<"thumbnail"> {
  return { kind: "thumbnail", payload: { realm_id: realmId, path_ids: pathIds } };
}

/**
 * After a message is written and has claimed its uploads: a `thumbnail`
 * job for the uploads it shows placeholders of, so the message is
 * rewritten even when the thumbnail was finished while it was being sent
 * (the job of the upload may have looked for claiming messages before this
 * one claimed). Nothing when the rendering has no placeholder.
 */
export async function enqueuePendingThumbnails(
  deps: Deps,
  realmId: number,
  rendered: Pick<RenderResult, "thumbnailPendingPathIds">,
): Promise<void> {
  if (rendered.thumbnailPendingPathIds.length === 0) return;
  await deps.deferred.enqueue([thumbnailJob(realmId, rendered.thumbnailPendingPathIds)]);
}
