import type { FilesDeps } from "../deps.js";
import { isAvatarObjectKey, isExportObjectKey } from "../storage/object-keys.js";
import { RouteNotFoundError } from "../errors.js";

/** Seconds a presigned URL of an avatar, emoji or organization image stays valid. */
const PRESIGN_SECONDS = 3600;
/** Seconds a presigned URL of a data export's tarball stays valid: long enough to start the download, never cached. */
const EXPORT_PRESIGN_SECONDS = 60;

/**
 * Where `GET /user_avatars/<key>` sends the client: a presigned URL of the
 * object in the files bucket (Zulip's S3 backend serves this namespace from
 * a public bucket; ours is private, so a short-lived URL stands in). No
 * credentials are needed, as in Zulip. Only keys of the avatars namespace
 * are presigned (never an upload's), and data exports' tarballs
 * (`exports/…`, whose random path is the credential: a minute, and the
 * redirect is not cached).
 * @returns the URL, valid for an hour (the redirect may be cached half that)
 * @throws RouteNotFoundError 404 for a key outside the namespace
 */
export async function userAvatarsLocation(deps: FilesDeps, objectKey: string): Promise<{ url: string; maxAgeSeconds: number }> {
  if (isExportObjectKey(objectKey)) return { url: await deps.files.presignGet(objectKey, EXPORT_PRESIGN_SECONDS), maxAgeSeconds: 0 };
  if (!isAvatarObjectKey(objectKey)) throw new RouteNotFoundError();
  return { url: await deps.files.presignGet(objectKey, PRESIGN_SECONDS), maxAgeSeconds: PRESIGN_SECONDS / 2 };
}
