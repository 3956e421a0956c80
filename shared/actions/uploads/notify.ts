import type { Deps } from "../../deps.js";
import type { AttachmentRecord } from "../../data/records/attachment.js";
import { uploadSpaceUsed } from "../../data/attachments.js";
import { sendEvent } from "../../events/publish.js";
import { attachmentToWire } from "../../wire/attachment.js";

/**
 * Sends an `attachment` event to the uploader's clients (Zulip's
 * `notify_attachment_update`; https://zulip.com/api/get-events#attachment-add):
 * `add` and `update` carry the attachment, `remove` only its ID; each
 * carries the organization's `upload_space_used` after the change (one
 * GetItem to read it).
 */
export async function notifyAttachmentUpdate(
  deps: Deps,
  op: "add" | "update" | "remove",
  attachment: AttachmentRecord,
): Promise<void> {
  const upload_space_used = Math.max(0, await uploadSpaceUsed(deps, attachment.realm_id));
  const event =
    op === "remove"
      ? { type: "attachment" as const, op, attachment: { id: attachment.id }, upload_space_used }
      : { type: "attachment" as const, op, attachment: attachmentToWire(attachment), upload_space_used };
  await sendEvent(deps, event, [attachment.owner_id]);
}
