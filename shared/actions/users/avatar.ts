import type { FilesDeps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { userConditions, writeUsers } from "../../data/user-writes.js";
import { listRealmMembers } from "../../data/users.js";
import { avatarUrlFor, DEFAULT_AVATAR_SIZE, MEDIUM_AVATAR_SIZE, mediumAvatarUrlFor } from "../../domain/avatar.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { BadImageError, JsonableError } from "../../errors.js";
import { type ImageInfo, MAX_DECODED_PIXELS, readImageHeader, resizeImage, type ResizeOptions } from "../../images/image.js";
import { avatarObjectKeys } from "../../storage/object-keys.js";
import { notifyRealmBotUpdates, notifyRealmUserUpdates } from "./notify.js";

/**
 * Uploaded avatars (Zulip's `set_avatar_backend`, `delete_avatar_backend`,
 * `upload_avatar_image` and `do_change_avatar_fields`). Routes that Zulip's
 * OpenAPI file does not describe: `POST` and `DELETE /users/me/avatar`.
 */

/** What an avatar or organization-image upload carries (the multipart body's file parts). */
export interface ImageUpload {
  files: { bytes: Uint8Array; truncated: boolean }[];
  /** File parts in the body, including any not read. */
  count: number;
}

/** Formats decoded for avatars, icons and logos (those of Zulip's `THUMBNAIL_ACCEPT_IMAGE_TYPES` sharp reads; stored as PNG). */
export const AVATAR_IMAGE_FORMATS: ReadonlySet<string> = new Set(["png", "jpeg", "gif", "webp", "avif", "tiff"]);

/** Uploaded avatars are immutable per key (a new version is a new key). */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Checks one image file of an upload and renders it square (`cover`) as
 * PNG at each size, Zulip's `resize_avatar`.
 * @param exactlyOne Zulip's message when the body has not exactly one file
 * @throws JsonableError `exactlyOne`, `Uploaded file is larger than the allowed limit of <n> MiB`;
 *   the BadImageError of {@link checkImageFile} and {@link resizeUploadedImage}
 */
export async function checkSquareImages(
  upload: ImageUpload,
  maxBytes: number,
  exactlyOne: string,
  sizes: readonly number[],
): Promise<Uint8Array[]> {
  if (upload.count !== 1 || upload.files.length !== 1) throw new JsonableError(exactlyOne);
  const file = upload.files[0]!;
  if (file.truncated || file.bytes.length > maxBytes) {
    throw new JsonableError(`Uploaded file is larger than the allowed limit of ${maxBytes / (1024 * 1024)} MiB`);
  }
  return renderSquare(file.bytes, sizes);
}

/**
 * Reads an uploaded image's header and refuses it as Zulip's
 * `libvips_check_image` does: bytes that are no image, more pixels in all
 * frames than {@link MAX_DECODED_PIXELS} (Zulip's bound is higher; a Lambda
 * has less memory), or a format the caller does not take.
 * @throws BadImageError `Could not decode image; did you upload an image file?`,
 *   `Image size exceeds limit.`, `Invalid image format`
 */
export async function checkImageFile(bytes: Uint8Array, formats: ReadonlySet<string>): Promise<ImageInfo> {
  const info = await readImageHeader(bytes);
  if (!info) throw new BadImageError("Could not decode image; did you upload an image file?");
  if (info.width * info.height * info.frames > MAX_DECODED_PIXELS) throw new BadImageError("Image size exceeds limit.");
  if (!formats.has(info.format)) throw new BadImageError("Invalid image format");
  return info;
}

/**
 * Resizes an uploaded image that passed {@link checkImageFile}; bytes that
 * fail to decode past the header (a truncated or corrupt file) are refused
 * as Zulip's `libvips_check_image` refuses them, not answered with a 500.
 * @throws BadImageError `Image is corrupted or truncated`
 */
export async function resizeUploadedImage(bytes: Uint8Array, options: ResizeOptions): Promise<Uint8Array> {
  try {
    return await resizeImage(bytes, options);
  } catch {
    throw new BadImageError("Image is corrupted or truncated");
  }
}

/** Decodes and renders an image square at each size, or refuses it as Zulip does. */
async function renderSquare(bytes: Uint8Array, sizes: readonly number[]): Promise<Uint8Array[]> {
  await checkImageFile(bytes, AVATAR_IMAGE_FORMATS);
  return Promise.all(sizes.map((size) => resizeUploadedImage(bytes, { width: size, height: size, fit: "cover", format: "png" })));
}

/**
 * Zulip's `avatar_changes_disabled` check: members may not change avatars
 * when the organization disables it (administrators still may).
 * @throws JsonableError `Avatar changes are disabled in this organization.`
 */
function checkAvatarChangesAllowed(realm: RealmRecord, user: UserRecord): void {
  if (realmSettings(realm).avatar_changes_disabled === true && !isRealmAdmin(user)) {
    throw new JsonableError("Avatar changes are disabled in this organization.");
  }
}

/**
 * Zulip's `do_change_avatar_fields`: stores the new source and the next
 * version (compare-and-set on the version read), sends `realm_user`
 * `update` with the avatar fields to the realm's active users (and, for a
 * bot, `realm_bot` `update` with `avatar_url` to its administrators) and
 * removes the previous upload's objects.
 * @returns the user after the change
 * @throws JsonableError `Avatar changed at the same time; please try again.` when another change won
 */
async function doChangeAvatarFields(deps: FilesDeps, user: UserRecord, source: "G" | "U", version: number): Promise<UserRecord> {
  const ok = await writeUsers(deps, user.realm_id, [
    {
      userId: user.user_id,
      fields: { avatar_source: source, avatar_version: version },
      condition: userConditions.activeWithAvatarVersion(user.avatar_version),
    },
  ]);
  if (!ok) throw new JsonableError("Avatar changed at the same time; please try again.");
  const after: UserRecord = { ...user, avatar_source: source, avatar_version: version };
  const members = await listRealmMembers(deps, user.realm_id);
  const audience = members.filter((u) => u.is_active).map((u) => u.user_id);
  const avatarUrl = avatarUrlFor(after, { clientGravatar: false, emailVisible: true })!;
  // A bot's administrators also get `realm_bot` `update` with the new URL, as from Zulip's `do_change_avatar_fields`.
  if (after.is_bot) await notifyRealmBotUpdates(deps, after, [{ avatar_url: avatarUrl }], members);
  await notifyRealmUserUpdates(
    deps,
    [
      {
        user_id: after.user_id,
        avatar_source: after.avatar_source,
        avatar_url: avatarUrl,
        avatar_url_medium: mediumAvatarUrlFor(after),
        avatar_version: after.avatar_version,
      },
    ],
    audience,
  );
  if (user.avatar_source === "U") {
    await deps.files.delete([
      avatarObjectKeys.avatar(user.realm_id, user.user_id, user.avatar_version, false),
      avatarObjectKeys.avatar(user.realm_id, user.user_id, user.avatar_version, true),
    ]);
  }
  return after;
}

/**
 * Checks one avatar image of an upload and renders Zulip's two sizes
 * (100×100 and 500×500, `cover`, PNG), before anything is written.
 * @param exactlyOne Zulip's message when the body has not exactly one file
 * @returns the small and medium PNGs, for {@link doSetUploadedAvatar}
 * @throws JsonableError `exactlyOne` and the size and image errors of {@link checkSquareImages}
 */
export async function renderAvatarImages(upload: ImageUpload, maxBytes: number, exactlyOne: string): Promise<Uint8Array[]> {
  return checkSquareImages(upload, maxBytes, exactlyOne, [DEFAULT_AVATAR_SIZE, MEDIUM_AVATAR_SIZE]);
}

/**
 * Stores rendered avatar images ({@link renderAvatarImages}) of a user or
 * bot at `version` (Zulip's `upload_avatar_image`). A new version is a new
 * key, so no cache serves a replaced image.
 */
export async function putAvatarImages(
  deps: FilesDeps,
  user: Pick<UserRecord, "realm_id" | "user_id">,
  version: number,
  [small, medium]: Uint8Array[],
): Promise<void> {
  const meta = { contentType: "image/png", cacheControl: IMMUTABLE };
  await Promise.all([
    deps.files.put(avatarObjectKeys.avatar(user.realm_id, user.user_id, version, false), small!, meta),
    deps.files.put(avatarObjectKeys.avatar(user.realm_id, user.user_id, version, true), medium!, meta),
  ]);
}

/**
 * Zulip's `upload_avatar_image` then `do_change_avatar_fields` with source
 * `U`: stores the rendered images under the next `avatar_version` and
 * switches the user to them (events as {@link doChangeAvatarFields}).
 * @returns the user after the change
 * @throws JsonableError `Avatar changed at the same time; please try again.`
 */
export async function doSetUploadedAvatar(deps: FilesDeps, user: UserRecord, images: Uint8Array[]): Promise<UserRecord> {
  const version = user.avatar_version + 1;
  await putAvatarImages(deps, user, version, images);
  return doChangeAvatarFields(deps, user, "U", version);
}

/**
 * `POST /users/me/avatar` (Zulip's `set_avatar_backend`): exactly one image
 * file, resized to 100×100 and 500×500 (`cover`, PNG), stored under the next
 * `avatar_version`; `avatar_source` becomes `U`. Bots may set their own, as
 * in Zulip.
 * @returns `{avatar_url}` of the new avatar
 * @throws JsonableError `You must upload exactly one avatar.`,
 *   `Avatar changes are disabled in this organization.`, and the image errors of {@link checkSquareImages}
 */
export async function checkSetAvatar(
  deps: FilesDeps,
  realm: RealmRecord,
  user: UserRecord,
  upload: ImageUpload,
  maxBytes: number,
): Promise<{ avatar_url: string }> {
  if (upload.count !== 1 || upload.files.length !== 1) throw new JsonableError("You must upload exactly one avatar.");
  checkAvatarChangesAllowed(realm, user);
  const images = await renderAvatarImages(upload, maxBytes, "You must upload exactly one avatar.");
  const after = await doSetUploadedAvatar(deps, user, images);
  return { avatar_url: avatarUrlFor(after, { clientGravatar: false, emailVisible: true })! };
}

/**
 * `DELETE /users/me/avatar` (Zulip's `delete_avatar_backend`): back to the
 * gravatar (`avatar_source` `G`, the next version).
 * @returns `{avatar_url}`: the gravatar URL
 * @throws JsonableError `Avatar changes are disabled in this organization.`
 */
export async function checkDeleteAvatar(deps: FilesDeps, realm: RealmRecord, user: UserRecord): Promise<{ avatar_url: string }> {
  checkAvatarChangesAllowed(realm, user);
  const after = await doChangeAvatarFields(deps, user, "G", user.avatar_version + 1);
  return { avatar_url: avatarUrlFor(after, { clientGravatar: false, emailVisible: true })! };
}
