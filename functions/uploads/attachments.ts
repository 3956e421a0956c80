import { checkRemoveAttachment } from "../../shared/actions/uploads/attachments.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { getUserAttachments } from "../../shared/queries/attachments/get-attachments.js";

/** `GET /attachments` (https://zulip.com/api/get-attachments): the caller's uploads and the organization's `upload_space_used`. */
export const getAttachments: Endpoint = async (ctx) => getUserAttachments(ctx.deps, ctx.user);

/** `DELETE /attachments/{attachment_id}` (https://zulip.com/api/remove-attachment): deletes one of the caller's uploads. */
export const removeAttachment: Endpoint<FilesDeps> = async (ctx) => {
  await checkRemoveAttachment(ctx.deps, ctx.user, pathInt(ctx.pathParams, "attachment_id"));
  return {};
};
