import type { FilesDeps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import {
  parseThumbnailFormatName,
  servedThumbnailFormat,
  thumbnailContentType,
  thumbnailFormatName,
} from "../../domain/thumbnails.js";
import { UploadedFileNotFoundError } from "../../errors.js";
import { thumbnailObjectKey } from "../../storage/object-keys.js";
import { accessUploadedFile, PRESIGNED_URL_SECONDS } from "./serve-file.js";
import { thumbnailJob } from "./thumbnail-job.js";
import { doEnsureThumbnails } from "./thumbnails.js";

/**
 * `GET /user_uploads/thumbnail/{realm_id_str}/{path…}/{format}` (Zulip's
 * `serve_file` with a thumbnail format): the presigned URL of a thumbnail
 * of an uploaded image, for whoever may see the image itself (a user, or a
 * spectator of a web-public stream linking it). A format the image does
 * not have is answered with its closest one; one not made yet is made now
 * (the files function decodes images), and a `thumbnail` job then rewrites
 * the placeholders of the messages showing it.
 * @param filename the path after the realm ID: the upload's rest, `/`, the format's name (`840x560.webp`)
 * @throws UploadedFileNotFoundError 404 for no such upload, an upload that is not an image, or no format name
 * @throws see `accessUploadedFile` (401 for a spectator, 403 for a user who may not see the image)
 */
export async function thumbnailRedirectUrl(
  deps: FilesDeps,
  realm: RealmRecord | null,
  user: UserRecord | null,
  realmIdStr: string,
  filename: string,
): Promise<string> {
  const slash = filename.lastIndexOf("/");
  if (slash <= 0) throw new UploadedFileNotFoundError();
  const requested = parseThumbnailFormatName(filename.slice(slash + 1));
  const attachment = await accessUploadedFile(deps, realm, user, realmIdStr, filename.slice(0, slash));
  if (!requested || !attachment.image) throw new UploadedFileNotFoundError();
  const format = servedThumbnailFormat(attachment.image, requested);
  const name = thumbnailFormatName(format);
  if (!attachment.image.thumbnails.some((t) => t.name === name)) {
    const ensured = await doEnsureThumbnails(deps, attachment);
    if (!ensured?.image?.thumbnails.some((t) => t.name === name)) throw new UploadedFileNotFoundError();
    await deps.deferred.enqueue([thumbnailJob(attachment.realm_id, [attachment.path_id])]);
  }
  return deps.files.presignGet(thumbnailObjectKey(attachment.path_id, name), PRESIGNED_URL_SECONDS, {
    contentDisposition: `inline; filename="${name}"`,
    contentType: thumbnailContentType(format),
  });
}
