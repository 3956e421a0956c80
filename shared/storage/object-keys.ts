/**
 * Object keys in the files bucket for images every user of an organization
 * may load without credentials (Zulip's `user_avatars` namespace: avatars,
 * custom emoji, the organization's icon and logos). Each key starts with
 * the realm ID, so an organization's objects share one prefix. The public
 * path of an object is `/user_avatars/<key>` (see `userAvatarsPath`).
 */
export const avatarObjectKeys = {
  /** A custom emoji's image (resized, animation kept). */
  emoji: (realmId: number, fileName: string) => `${realmId}/emoji/images/${fileName}`,
  /** The first frame of an animated custom emoji, as PNG (`still_url`). */
  emojiStill: (realmId: number, fileName: string) => `${realmId}/emoji/images/still/${stillFileName(fileName)}`,
  /**
   * A user's uploaded avatar at one version (`avatar_version`): 100×100, or
   * 500×500 for `medium`. A new version is a new key, so caches never serve
   * a replaced image.
   */
  avatar: (realmId: number, userId: number, version: number, medium: boolean) =>
    `${realmId}/avatars/${userId}-${version}${medium ? "-medium" : ""}.png`,
  /** The organization's uploaded icon, day logo or night logo at one version. */
  realmImage: (realmId: number, kind: "icon" | "logo" | "night_logo", version: number) =>
    `${realmId}/realm/${kind}-${version}.png`,
} as const;

/**
 * The key of a public data export's tarball:
 * `exports/<realm_id>/<random>/zulip-export-<random>.tar.gz` (Zulip's S3
 * backend keeps exports under `exports/` of its avatars bucket). The random
 * directory is the credential of its `export_url`, as in Zulip.
 */
export function exportObjectKey(realmId: number, token: string, fileSuffix: string): string {
  return `exports/${realmId}/${token}/zulip-export-${fileSuffix}.tar.gz`;
}

/** Whether `key` is one {@link exportObjectKey} builds (the serving route presigns nothing else under `exports/`). */
export function isExportObjectKey(key: string): boolean {
  return /^exports\/\d{1,12}\/[A-Za-z0-9_-]{24}\/zulip-export-[a-z0-9]{8}\.tar\.gz$/.test(key);
}

/** The still image's name of an emoji file: its base name with `.png`. */
function stillFileName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return `${dot > 0 ? fileName.slice(0, dot) : fileName}.png`;
}

/**
 * Whether `key` is one {@link avatarObjectKeys} can build: the serving route
 * presigns only such keys, so a crafted path reaches no upload or other
 * object of the bucket.
 */
export function isAvatarObjectKey(key: string): boolean {
  return (
    /^\d{1,12}\/emoji\/images\/(still\/)?[0-9a-f]{16}\.(png|gif|jpeg|webp)$/.test(key) ||
    /^\d{1,12}\/avatars\/\d{1,15}-\d{1,9}(-medium)?\.png$/.test(key) ||
    /^\d{1,12}\/realm\/(icon|logo|night_logo)-\d{1,9}\.png$/.test(key)
  );
}

/**
 * The key of an uploaded image's thumbnail: `thumbnail/<path_id>/<format
 * name>`, the path after `/user_uploads/` of its URL (Zulip's
 * `get_image_thumbnail_path`). Built only from a stored attachment's path
 * and a known format, never from a request's path.
 */
export function thumbnailObjectKey(pathId: string, formatName: string): string {
  return `thumbnail/${pathId}/${formatName}`;
}

/** Every object of an upload: the file and its stored thumbnails. */
export function uploadObjectKeys(pathId: string, thumbnailNames: readonly string[] = []): string[] {
  return [pathId, ...thumbnailNames.map((name) => thumbnailObjectKey(pathId, name))];
}
