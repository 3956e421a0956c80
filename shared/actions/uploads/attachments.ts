import type { FilesDeps } from "../../deps.js";
import { deleteAttachmentItem, ownedAttachmentById } from "../../data/attachments.js";
import type { AttachmentRecord } from "../../data/records/attachment.js";
import type { UserRecord } from "../../data/records/user.js";
import { JsonableError } from "../../errors.js";
import { uploadObjectKeys } from "../../storage/object-keys.js";
import { notifyAttachmentUpdate } from "./notify.js";

/**
 * Deletes an attachment whoever asks (Zulip's `remove_attachment`): the
 * item first, so the file is no longer served or claimable, then the bytes,
 * then the `attachment` `remove` event to the owner's clients.
 * @param options.onlyIfUnclaimed delete only while no message claims it (the unclaimed sweep)
 * @returns false when it was already deleted, or claimed meanwhile (nothing done, no event)
 */
export async function doDeleteAttachment(
  deps: FilesDeps,
  attachment: AttachmentRecord,
  options: { onlyIfUnclaimed?: boolean } = {},
): Promise<boolean> {
  if (!(await deleteAttachmentItem(deps, attachment, options.onlyIfUnclaimed))) return false;
  await deps.files.delete(uploadObjectKeys(attachment.path_id, attachment.image?.thumbnails.map((t) => t.name)));
  await notifyAttachmentUpdate(deps, "remove", attachment);
  return true;
}

/**
 * `DELETE /attachments/{attachment_id}` (https://zulip.com/api/remove-attachment;
 * Zulip's `remove_attachment_backend`): the caller deletes one of their
 * own uploads; links to it then answer 404.
 * @throws JsonableError 400 `Invalid attachment` when the caller has no upload of that ID
 */
export async function checkRemoveAttachment(deps: FilesDeps, user: UserRecord, attachmentId: number): Promise<void> {
  const attachment = await ownedAttachmentById(deps, user.user_id, attachmentId);
  if (!attachment || attachment.realm_id !== user.realm_id) throw new JsonableError("Invalid attachment");
  if (!(await doDeleteAttachment(deps, attachment))) throw new JsonableError("Invalid attachment");
}
