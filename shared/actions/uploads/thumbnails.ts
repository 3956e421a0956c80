import pMap from "p-map";
import type { Deps, FilesDeps } from "../../deps.js";
import { attachmentByPath, updateAttachmentImage } from "../../data/attachments.js";
import { getMessagesByIds, messageById, updateRenderedContent } from "../../data/messages.js";
import type { AttachmentRecord, ImageAttachmentInfo, StoredThumbnail } from "../../data/records/attachment.js";
import type { MessageRecord } from "../../data/records/message.js";
import { userMessageRowsOf } from "../../data/user-messages.js";
import {
  missingThumbnailFormats,
  thumbnailContentType,
  thumbnailFormatName,
  uploadPreviewOf,
  type ThumbnailFormat,
} from "../../domain/thumbnails.js";
import { resizeImageWithSize, type ResizedImage } from "../../images/image.js";
import { replaceUploadPlaceholders } from "../../markdown/previews.js";
import type { UploadPreview } from "../../markdown/types.js";
import { thumbnailObjectKey } from "../../storage/object-keys.js";
import { messageAudience, updateMessageReceivers } from "../../access/message-audience.js";
import { sendUpdateMessageEvent } from "../../events/per-user.js";
import type { ThumbnailJobPayload } from "./thumbnail-job.js";

/**
 * Pixels of all frames an animated thumbnail decodes at most (Zulip's
 * `IMAGE_MAX_ANIMATED_PIXELS`): a long animation is cut to the frames that
 * fit, bounding the worker's memory and time.
 */
export const THUMBNAIL_ANIMATED_PIXELS = 30_000_000;

/** Messages whose renderings one thumbnail job rewrites at a time. */
const MESSAGE_REWRITE_CONCURRENCY = 10;

/** Messages read per BatchGet round while rewriting. */
const MESSAGE_READ_BATCH = 100;

/** Attempts to rewrite one message whose rendering keeps changing under the rewrite. */
const REWRITE_ATTEMPTS = 5;

/**
 * Runs the `thumbnail` job of `thumbnailJob` (Zulip's
 * `ThumbnailWorker.consume`): for each upload, its missing thumbnails, then
 * its messages' placeholders — the thumbnail's `<img>`, or no preview for an
 * upload found not to be an image (also when an earlier job found so after
 * the message rendered its placeholder). Idempotent: a repeated job makes
 * nothing twice and sends no event for messages already rewritten.
 */
export async function runThumbnail(deps: FilesDeps, payload: ThumbnailJobPayload): Promise<void> {
  // One image at a time: each may hold a decoded original in memory.
  for (const pathId of payload.path_ids) {
    const attachment = await attachmentByPath(deps, payload.realm_id, pathId);
    if (!attachment) continue;
    const after = await doEnsureThumbnails(deps, attachment);
    if (after) await doUpdateThumbnailedMessages(deps, after);
  }
}

/** Makes one thumbnail; undefined when the bytes do not decode after all. */
async function makeThumbnail(bytes: Uint8Array, image: ImageAttachmentInfo, format: ThumbnailFormat): Promise<ResizedImage | undefined> {
  const frameBudget = Math.max(1, Math.floor(THUMBNAIL_ANIMATED_PIXELS / (image.width * image.height)));
  try {
    return await resizeImageWithSize(bytes, {
      width: format.maxWidth,
      height: format.maxHeight,
      fit: "inside",
      format: format.extension as "webp",
      animated: format.animated,
      ...(format.animated && frameBudget < image.frames ? { maxFrames: frameBudget } : {}),
      withoutEnlargement: true,
    });
  } catch {
    return undefined;
  }
}

/**
 * Makes and stores the thumbnails an uploaded image is missing (Zulip's
 * `ensure_thumbnails`): reads the original from the bucket, writes each
 * format under its thumbnail key, then records them on the attachment. An
 * original that does not decode after all loses its image metadata, so
 * messages drop its preview.
 * @returns the attachment as now stored; undefined when it (or its file) is gone
 * @throws Error for storage failures (the job is retried)
 */
export async function doEnsureThumbnails(deps: FilesDeps, attachment: AttachmentRecord): Promise<AttachmentRecord | undefined> {
  const image = attachment.image;
  if (!image) return attachment;
  const missing = missingThumbnailFormats(image);
  if (missing.length === 0) return attachment;
  const bytes = await deps.files.get(attachment.path_id);
  if (!bytes) return undefined;
  const made: StoredThumbnail[] = [];
  for (const format of missing) {
    const resized = await makeThumbnail(bytes, image, format);
    if (!resized) {
      if (made.length > 0 || image.thumbnails.length > 0) break;
      deps.log.warn("upload does not decode; preview removed", { pathId: attachment.path_id });
      return (await updateAttachmentImage(deps, attachment, undefined)) ? { ...attachment, image: undefined } : undefined;
    }
    const name = thumbnailFormatName(format);
    await deps.files.put(thumbnailObjectKey(attachment.path_id, name), resized.bytes, {
      contentType: thumbnailContentType(format),
      contentDisposition: `inline; filename="${name}"`,
    });
    made.push({ name, width: resized.width, height: resized.height, byte_size: resized.bytes.length });
  }
  const next: ImageAttachmentInfo = { ...image, thumbnails: [...image.thumbnails, ...made] };
  return (await updateAttachmentImage(deps, attachment, next)) ? { ...attachment, image: next } : undefined;
}

/**
 * Rewrites the placeholders of one upload in the messages that claim it
 * (Zulip's `update_message_rendered_content`): the thumbnail once it is
 * stored, or no preview when the upload is not an image after all. Each
 * changed message gets a `rendering_only` `update_message` event (Zulip's
 * `do_update_embedded_data`), sent to those who may have it (its UserMessage
 * rows, and subscribers of a shared-history stream).
 */
export async function doUpdateThumbnailedMessages(deps: Deps, attachment: AttachmentRecord): Promise<void> {
  const preview = uploadPreviewOf(attachment) ?? null;
  // Still being made: a later job rewrites.
  if (preview !== null && preview.thumbnailUrl === undefined) return;
  const ids = attachment.messages.map((m) => m.id);
  for (let i = 0; i < ids.length; i += MESSAGE_READ_BATCH) {
    const found = await getMessagesByIds(deps, ids.slice(i, i + MESSAGE_READ_BATCH));
    await pMap(found.values(), (message) => rewriteMessage(deps, message, attachment.path_id, preview), {
      concurrency: MESSAGE_REWRITE_CONCURRENCY,
    });
  }
}

/** One message's rewrite, re-read and retried while a concurrent rewrite or edit changes it. */
async function rewriteMessage(deps: Deps, first: MessageRecord, pathId: string, preview: UploadPreview | null): Promise<void> {
  let message: MessageRecord | undefined = first;
  for (let attempt = 0; attempt < REWRITE_ATTEMPTS && message; attempt++) {
    const html = replaceUploadPlaceholders(message.rendered_content, pathId, preview);
    if (html === undefined) return;
    if (await updateRenderedContent(deps, message.id, message.rendered_content, html)) {
      await notifyRenderingUpdate(deps, message, html);
      return;
    }
    message = await messageById(deps, message.id);
  }
  if (message) throw new Error(`Could not re-render message ${message.id} for thumbnail ${pathId}`);
}

/** The `rendering_only` `update_message` event of a re-rendered message (Zulip's `do_update_embedded_data`). */
async function notifyRenderingUpdate(deps: Deps, message: MessageRecord, renderedContent: string): Promise<void> {
  const audience = await messageAudience(deps, message);
  const rows = await userMessageRowsOf(deps, message.id, audience.recipients.userIds);
  await sendUpdateMessageEvent(
    deps,
    {
      type: "update_message",
      user_id: null,
      edit_timestamp: Math.floor(deps.clock.now() / 1000),
      message_id: message.id,
      message_ids: [message.id],
      rendering_only: true,
      content: message.content,
      rendered_content: renderedContent,
    },
    updateMessageReceivers(audience, rows),
  );
}
