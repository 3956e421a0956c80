import type { Deps } from "../../deps.js";
import { attachmentsOfOwner, uploadSpaceUsed } from "../../data/attachments.js";
import type { UserRecord } from "../../data/records/user.js";
import { attachmentToWire, type WireAttachment } from "../../wire/attachment.js";

/**
 * `GET /attachments` (https://zulip.com/api/get-attachments; Zulip's
 * `list_by_user`): the caller's uploads with the messages that link them,
 * and the organization's `upload_space_used` in bytes. Two reads in parallel.
 */
export async function getUserAttachments(
  deps: Deps,
  user: UserRecord,
): Promise<{ attachments: WireAttachment[]; upload_space_used: number }> {
  const [records, used] = await Promise.all([attachmentsOfOwner(deps, user.user_id), uploadSpaceUsed(deps, user.realm_id)]);
  return {
    attachments: records.filter((r) => r.realm_id === user.realm_id).map(attachmentToWire),
    upload_space_used: Math.max(0, used),
  };
}
