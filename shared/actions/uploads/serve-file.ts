import { randomBytes } from "node:crypto";
import type { Deps } from "../../deps.js";
import { accessMessage } from "../../access/message.js";
import { attachmentByPath, fileAccessToken, putFileAccessToken } from "../../data/attachments.js";
import type { AttachmentRecord } from "../../data/records/attachment.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { isGuest } from "../../domain/roles.js";
import { uploadContentDisposition } from "../../domain/uploads.js";
import { JsonableError, UploadedFileForbiddenError, UploadedFileNotFoundError } from "../../errors.js";

/**
 * Seconds a redirect's presigned S3 URL stays valid: Zulip's S3 backend
 * signs its redirects for 60 seconds (`get_signed_upload_url`).
 */
export const PRESIGNED_URL_SECONDS = 60;

/** Seconds a `/user_uploads/temporary/...` URL works (Zulip's `SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS`). */
export const TEMPORARY_URL_SECONDS = 60;

/** Messages checked per round while looking for one the caller may see (each check is at most two reads). */
const ACCESS_CHECK_BATCH = 10;

/** Whether the user may see at least one of the messages (Zulip's `has_message_access` over the attachment's messages). */
async function mayAccessAnyMessage(deps: Deps, realm: RealmRecord, user: UserRecord, ids: number[]): Promise<boolean> {
  // Newest first: a file is most often reshared recently, where the caller is likelier to be.
  const newestFirst = [...ids].reverse();
  for (let i = 0; i < newestFirst.length; i += ACCESS_CHECK_BATCH) {
    const results = await Promise.all(
      newestFirst.slice(i, i + ACCESS_CHECK_BATCH).map((id) =>
        accessMessage(deps, realm, user, id).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (results.some(Boolean)) return true;
  }
  return false;
}

/**
 * Finds an uploaded file the user may see (Zulip's
 * `validate_attachment_request`): its uploader; anyone but a guest when a
 * public stream's message links it; anyone who may see a message linking it.
 * @param realmIdStr the path's first segment; a path of another organization names nothing here
 * @param filename the rest of the path (`<2 hex>/<random>/<name>`)
 * @throws UploadedFileNotFoundError 404 when the organization has no such file
 * @throws UploadedFileForbiddenError 403 when the user may not see it
 */
export async function accessUploadedFile(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  realmIdStr: string,
  filename: string,
): Promise<AttachmentRecord> {
  if (realmIdStr !== String(realm.id)) throw new UploadedFileNotFoundError();
  const attachment = await attachmentByPath(deps, realm.id, `${realmIdStr}/${filename}`);
  if (!attachment) throw new UploadedFileNotFoundError();
  if (await userMayAccessAttachment(deps, realm, user, attachment)) return attachment;
  throw new UploadedFileForbiddenError();
}

/**
 * Zulip's `validate_attachment_request` for a found attachment: its
 * uploader; anyone but a guest when a public stream's message links it;
 * anyone who may see a message linking it. Access checks of messages only
 * when the first two fail.
 */
export async function userMayAccessAttachment(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  attachment: AttachmentRecord,
): Promise<boolean> {
  if (attachment.owner_id === user.user_id) return true;
  if (attachment.is_realm_public && !isGuest(user)) return true;
  return mayAccessAnyMessage(deps, realm, user, attachment.messages.map((m) => m.id));
}

/**
 * A presigned URL of the file's bytes, valid {@link PRESIGNED_URL_SECONDS}
 * (Zulip's `serve_s3`): S3 answers with the stored type and a
 * `Content-Disposition` that shows inline types in place and downloads the rest.
 */
export async function presignedFileUrl(deps: Deps, attachment: AttachmentRecord): Promise<string> {
  return deps.files.presignGet(attachment.path_id, PRESIGNED_URL_SECONDS, {
    contentDisposition: uploadContentDisposition(attachment.file_name, attachment.content_type),
    contentType: attachment.content_type,
  });
}

/**
 * `GET /user_uploads/{realm_id_str}/{filename}` (root form; Zulip's
 * `serve_file_backend`): the presigned URL to redirect the caller to.
 * @throws see {@link accessUploadedFile}
 */
export async function uploadedFileRedirectUrl(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  realmIdStr: string,
  filename: string,
): Promise<string> {
  return presignedFileUrl(deps, await accessUploadedFile(deps, realm, user, realmIdStr, filename));
}

/**
 * `GET /api/v1/user_uploads/{realm_id_str}/{filename}`
 * (https://zulip.com/api/get-file-temporary-url; Zulip's
 * `generate_unauthed_file_access_url`): a URL path that serves the file
 * without credentials for {@link TEMPORARY_URL_SECONDS}. The token is random
 * (stored with its path and expiry) rather than signed, so the server needs
 * no signing secret.
 * @returns `/user_uploads/temporary/<token>/<file name>`
 * @throws see {@link accessUploadedFile}
 */
export async function doCreateTemporaryFileUrl(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  realmIdStr: string,
  filename: string,
): Promise<string> {
  const attachment = await accessUploadedFile(deps, realm, user, realmIdStr, filename);
  const token = randomBytes(32).toString("hex").toUpperCase();
  const expiresAt = Math.floor(deps.clock.now() / 1000) + TEMPORARY_URL_SECONDS;
  await putFileAccessToken(deps, token, attachment.path_id, expiresAt);
  const name = attachment.path_id.split("/").pop()!;
  return `/user_uploads/temporary/${token}/${name}`;
}

/**
 * `GET /user_uploads/temporary/{token}/{filename}` (Zulip's
 * `serve_file_unauthed_from_token`): the presigned URL of the file a live
 * token names. No credentials.
 * @throws JsonableError 400 `Invalid token` for an unknown, expired or orphaned token
 * @throws JsonableError 400 `Invalid filename` when the name is not the token's file's
 */
export async function temporaryFileRedirectUrl(deps: Deps, token: string, filename: string): Promise<string> {
  const found = /^[0-9A-F]{64}$/.test(token) ? await fileAccessToken(deps, token) : undefined;
  if (!found || found.expiresAt * 1000 < deps.clock.now()) throw new JsonableError("Invalid token");
  if (found.pathId.split("/").pop() !== filename) throw new JsonableError("Invalid filename");
  const realmId = Number.parseInt(found.pathId.split("/")[0]!, 10);
  const attachment = await attachmentByPath(deps, realmId, found.pathId);
  if (!attachment) throw new JsonableError("Invalid token");
  return presignedFileUrl(deps, attachment);
}
