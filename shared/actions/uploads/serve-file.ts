import { randomBytes } from "node:crypto";
import type { Deps, FilesDeps } from "../../deps.js";
import { accessMessage } from "../../access/message.js";
import { attachmentByPath, fileAccessToken, putFileAccessToken } from "../../data/attachments.js";
import { getMessagesByIds } from "../../data/messages.js";
import type { AttachmentRecord } from "../../data/records/attachment.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { getStreamsByIds } from "../../data/streams.js";
import { isGuest } from "../../domain/roles.js";
import { webPublicStreamsEnabled } from "../../domain/stream-permissions.js";
import { uploadContentDisposition } from "../../domain/uploads.js";
import {
  JsonableError,
  UnauthorizedError,
  UploadedFileForbiddenError,
  UploadedFileNotFoundError,
} from "../../errors.js";

/**
 * Seconds a redirect's presigned S3 URL stays valid: Zulip's S3 backend
 * signs its redirects for 60 seconds (`get_signed_upload_url`).
 */
export const PRESIGNED_URL_SECONDS = 60;

/** Seconds a `/user_uploads/temporary/...` URL works (Zulip's `SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS`). */
export const TEMPORARY_URL_SECONDS = 60;

/** Messages checked per round while looking for one the caller may see (each check is at most two reads). */
const ACCESS_CHECK_BATCH = 10;

/**
 * Newest claiming messages a spectator's request looks at for one still in
 * a web-public stream: one BatchGet of the messages, one of their streams.
 * A file linked more often is judged by its most recent links.
 */
export const SPECTATOR_CHECKED_MESSAGES = 100;

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
 * Whether an anonymous spectator may see a found attachment (Zulip's
 * `validate_attachment_request_for_spectator_access`): the organization
 * allows spectators, a web-public stream's message claimed the file, and one
 * of its newest {@link SPECTATOR_CHECKED_MESSAGES} claiming messages is
 * still in a stream of this organization that is web-public, not private
 * and not archived (a stream made private or not web-public, or a message
 * moved out of it, withdraws the file). Two round trips at most, none when
 * the organization or the attachment's flag already refuses.
 */
async function spectatorMayAccessAttachment(deps: Deps, realm: RealmRecord, attachment: AttachmentRecord): Promise<boolean> {
  if (!webPublicStreamsEnabled(realm) || !attachment.is_web_public) return false;
  const ids = attachment.messages.slice(-SPECTATOR_CHECKED_MESSAGES).map((m) => m.id);
  if (ids.length === 0) return false;
  const messages = await getMessagesByIds(deps, ids);
  const streamIds = new Set<number>();
  for (const message of messages.values()) {
    if (message.realm_id === realm.id && message.recipient_type === "stream" && message.stream_id !== undefined) {
      streamIds.add(message.stream_id);
    }
  }
  if (streamIds.size === 0) return false;
  const streams = await getStreamsByIds(deps, realm.id, [...streamIds]);
  return [...streams.values()].some((s) => s.is_web_public && !s.invite_only && !s.deactivated);
}

/**
 * Finds an uploaded file the caller may see (Zulip's
 * `validate_attachment_request`). A user sees it as its uploader, as anyone
 * but a guest when a public stream's message links it, or when they may see
 * a message linking it. A spectator (`user` null) sees it only under
 * {@link spectatorMayAccessAttachment}'s rules.
 * @param realm the organization of the request's host; null when it names none (or a deactivated one)
 * @param user the caller; null for a request without credentials (a spectator)
 * @param realmIdStr the path's first segment; a path of another organization names nothing here
 * @param filename the rest of the path (`<2 hex>/<random>/<name>`)
 * @throws UploadedFileNotFoundError 404 when there is no organization or it has no such file
 * @throws UnauthorizedError 401 when a spectator may not see the file (Zulip's web app
 *   redirects to its login page; an API answers what a request without credentials gets)
 * @throws UploadedFileForbiddenError 403 when a user may not see it
 */
export async function accessUploadedFile(
  deps: Deps,
  realm: RealmRecord | null,
  user: UserRecord | null,
  realmIdStr: string,
  filename: string,
): Promise<AttachmentRecord> {
  if (!realm || realm.deactivated || realmIdStr !== String(realm.id)) throw new UploadedFileNotFoundError();
  const attachment = await attachmentByPath(deps, realm.id, `${realmIdStr}/${filename}`);
  if (!attachment) throw new UploadedFileNotFoundError();
  if (await userMayAccessAttachment(deps, realm, user, attachment)) return attachment;
  throw user ? new UploadedFileForbiddenError() : new UnauthorizedError();
}

/**
 * Zulip's `validate_attachment_request` for a found attachment of the
 * realm. A user: its uploader; anyone but a guest when a public stream's
 * message links it; anyone who may see a message linking it (message access
 * checks only when the first two fail). A spectator (`user` null): a
 * web-public stream still links it in an organization that allows
 * spectators (see {@link accessUploadedFile}).
 */
export async function userMayAccessAttachment(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord | null,
  attachment: AttachmentRecord,
): Promise<boolean> {
  if (!user) return spectatorMayAccessAttachment(deps, realm, attachment);
  if (attachment.owner_id === user.user_id) return true;
  if (attachment.is_realm_public && !isGuest(user)) return true;
  return mayAccessAnyMessage(deps, realm, user, attachment.messages.map((m) => m.id));
}

/**
 * A presigned URL of the file's bytes, valid {@link PRESIGNED_URL_SECONDS}
 * (Zulip's `serve_s3`): S3 answers with the stored type and a
 * `Content-Disposition` that shows inline types in place and downloads the
 * rest, or downloads every type when `forceDownload`.
 */
export async function presignedFileUrl(deps: FilesDeps, attachment: AttachmentRecord, forceDownload = false): Promise<string> {
  return deps.files.presignGet(attachment.path_id, PRESIGNED_URL_SECONDS, {
    contentDisposition: uploadContentDisposition(attachment.file_name, attachment.content_type, forceDownload),
    contentType: attachment.content_type,
  });
}

/**
 * `GET /user_uploads/{realm_id_str}/{filename}` (root form; Zulip's
 * `serve_file_backend`) and its download form
 * `GET /user_uploads/download/...` (`serve_file_download_backend`): the
 * presigned URL to redirect the caller (a user, or a spectator when `user`
 * is null) to. With `forceDownload`, S3 answers `Content-Disposition:
 * attachment; filename=...` whatever the file's type, so a browser saves it.
 * @throws see {@link accessUploadedFile}
 */
export async function uploadedFileRedirectUrl(
  deps: FilesDeps,
  realm: RealmRecord | null,
  user: UserRecord | null,
  realmIdStr: string,
  filename: string,
  forceDownload = false,
): Promise<string> {
  return presignedFileUrl(deps, await accessUploadedFile(deps, realm, user, realmIdStr, filename), forceDownload);
}

/**
 * `GET /api/v1/user_uploads/{realm_id_str}/{filename}`
 * (https://zulip.com/api/get-file-temporary-url; Zulip's
 * `generate_unauthed_file_access_url`): a URL path that serves the file
 * without credentials for {@link TEMPORARY_URL_SECONDS}. The token is random
 * (stored with its path and expiry) rather than signed, so the server needs
 * no signing secret.
 * @returns `/user_uploads/temporary/<token>/<file name, percent-encoded>`
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
  // Percent-encoded, as Django's `reverse` gives Zulip's URL (a sanitized name has only letters, digits, `_.-`).
  return `/user_uploads/temporary/${token}/${encodeURIComponent(name)}`;
}

/**
 * `GET /user_uploads/temporary/{token}/{filename}` (Zulip's
 * `serve_file_unauthed_from_token`): the presigned URL of the file a live
 * token names. No credentials.
 * @throws JsonableError 400 `Invalid token` for an unknown, expired or orphaned token
 * @throws JsonableError 400 `Invalid filename` when the name is not the token's file's
 */
export async function temporaryFileRedirectUrl(deps: FilesDeps, token: string, filename: string): Promise<string> {
  const found = /^[0-9A-F]{64}$/.test(token) ? await fileAccessToken(deps, token) : undefined;
  if (!found || found.expiresAt * 1000 < deps.clock.now()) throw new JsonableError("Invalid token");
  if (found.pathId.split("/").pop() !== filename) throw new JsonableError("Invalid filename");
  const realmId = Number.parseInt(found.pathId.split("/")[0]!, 10);
  const attachment = await attachmentByPath(deps, realmId, found.pathId);
  if (!attachment) throw new JsonableError("Invalid token");
  return presignedFileUrl(deps, attachment);
}
