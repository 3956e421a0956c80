import { randomBytes } from "node:crypto";
import type { FilesDeps } from "../../deps.js";
import { putAttachment } from "../../data/attachments.js";
import { allocateIds } from "../../data/counters.js";
import type { AttachmentRecord } from "../../data/records/attachment.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { THUMBNAIL_ACCEPT_IMAGE_TYPES } from "../../domain/thumbnails.js";
import { inspectImage } from "../../images/image.js";
import { thumbnailJob } from "./thumbnail-job.js";
import {
  bareContentType,
  capUploadPathName,
  sanitizeUploadName,
  uploadContentDisposition,
  uploadContentType,
  buildUploadPathId,
  uploadUrl,
} from "../../domain/uploads.js";
import { JsonableError, RealmUploadQuotaError } from "../../errors.js";
import { notifyAttachmentUpdate } from "./notify.js";

/** A file as the request carried it. */
export interface FileToUpload {
  /** The client's file name (unsanitized). */
  filename: string;
  /** The part's MIME type; `""` when the client sent none. */
  contentType: string;
  bytes: Uint8Array;
  /** Longer than the read limit (the size check refuses it). */
  truncated: boolean;
}

/** Longest client file name kept, in characters (Zulip's `Attachment.file_name` column holds 5,000). */
export const MAX_UPLOAD_FILE_NAME_LENGTH = 5000;

/** Bytes in one MiB. */
const MIB = 1024 * 1024;

/**
 * An upload's S3 key and path: `<realm>/<2 hex>/<24 URL-safe random chars>/<name>`, drawn from the CSPRNG,
 * the name cut to fit S3 and DynamoDB key limits.
 */
function newPathId(realmId: number, sanitizedName: string): string {
  return buildUploadPathId(
    realmId,
    { prefix: randomBytes(1).toString("hex"), name: randomBytes(18).toString("base64url") },
    capUploadPathName(sanitizedName),
  );
}

/**
 * `POST /user_uploads` (https://zulip.com/api/upload-file; Zulip's
 * `upload_file_backend` and `upload_message_attachment`): checks the one
 * file against the size limit and the organization's quota, stores its
 * bytes under a fresh random path, records the attachment (owned by the
 * caller, claimed by no message yet) and sends the `attachment` `add`
 * event to the caller's clients. A file whose type may be an image and
 * whose header decodes as one (Zulip's `maybe_thumbnail`) records its
 * dimensions and gets a `thumbnail` job.
 * @param files every file part of the request
 * @param maxSizeMib the server's limit (`MAX_FILE_UPLOAD_SIZE_MIB`)
 * @returns the file's URL path (`/user_uploads/<path_id>`)
 * @throws JsonableError 400 `You must specify a file to upload` / `You may only upload one file at a time`
 * @throws JsonableError 400 `Uploaded file is larger than the allowed limit of {n} MiB`
 * @throws RealmUploadQuotaError 400 `REALM_UPLOAD_QUOTA` when the quota would be exceeded (the bytes are then deleted)
 */
export async function checkUploadFile(
  deps: FilesDeps,
  realm: RealmRecord,
  user: UserRecord,
  files: FileToUpload[],
  maxSizeMib: number,
): Promise<{ url: string }> {
  if (files.length === 0) throw new JsonableError("You must specify a file to upload");
  if (files.length !== 1) throw new JsonableError("You may only upload one file at a time");
  const file = files[0]!;
  if (file.truncated || file.bytes.length > maxSizeMib * MIB) {
    throw new JsonableError(`Uploaded file is larger than the allowed limit of ${maxSizeMib} MiB`);
  }
  // Zulip URL-unquotes the name the client sent (browsers may percent-encode it).
  let fileName = file.filename;
  try {
    fileName = decodeURIComponent(fileName);
  } catch {
    // A name with a stray `%` is kept as sent.
  }
  fileName = fileName.slice(0, MAX_UPLOAD_FILE_NAME_LENGTH);
  const quotaMib = realm.upload_quota_mib ?? null;
  const quotaBytes = quotaMib === null ? null : quotaMib * MIB;
  if (quotaBytes !== null && file.bytes.length > quotaBytes) throw new RealmUploadQuotaError();

  const contentType = uploadContentType(file.contentType, fileName);
  const pathId = newPathId(realm.id, sanitizeUploadName(fileName));
  const record = await storeUpload(deps, realm, user, file.bytes, fileName, contentType, pathId, quotaBytes);
  await Promise.all([
    notifyAttachmentUpdate(deps, "add", record),
    record.image ? deps.deferred.enqueue([thumbnailJob(realm.id, [pathId])]) : Promise.resolve(),
  ]);
  return { url: uploadUrl(pathId) };
}

/**
 * Stores the bytes and the attachment record (with the realm's upload space)
 * of a checked upload. Whatever fails after the bytes are stored removes
 * them again, so a refused or failed upload leaves no object behind.
 * @throws RealmUploadQuotaError when the quota would be exceeded
 */
async function storeUpload(
  deps: FilesDeps,
  realm: RealmRecord,
  user: UserRecord,
  bytes: Uint8Array,
  fileName: string,
  contentType: string,
  pathId: string,
  quotaBytes: number | null,
): Promise<AttachmentRecord> {
  let stored = false;
  try {
    // Only a type that may be an image is decoded, and then only its header: the bytes decide.
    const [id, , image] = await Promise.all([
      allocateIds(deps, "attachment"),
      deps.files.put(pathId, bytes, {
        contentType,
        contentDisposition: uploadContentDisposition(fileName, contentType),
      }),
      THUMBNAIL_ACCEPT_IMAGE_TYPES.has(bareContentType(contentType)) ? inspectImage(bytes) : Promise.resolve(undefined),
    ]);
    const record: AttachmentRecord = {
      id,
      realm_id: realm.id,
      owner_id: user.user_id,
      file_name: fileName,
      path_id: pathId,
      size: bytes.length,
      content_type: contentType,
      create_time: deps.clock.now(),
      messages: [],
      is_realm_public: false,
      is_web_public: false,
      ...(image ? { image: { width: image.width, height: image.height, frames: image.frames, thumbnails: [] } } : {}),
    };
    // The quota is checked atomically with the write.
    if (!(await putAttachment(deps, record, quotaBytes))) throw new RealmUploadQuotaError();
    stored = true;
    return record;
  } finally {
    if (!stored) await deps.files.delete([pathId]);
  }
}
