import { randomBytes } from "node:crypto";
import type { Deps, FilesDeps } from "../../deps.js";
import { allocateIds } from "../../data/counters.js";
import { deactivateRealmEmoji, listRealmEmoji, putRealmEmoji } from "../../data/realm-emoji.js";
import type { RealmEmojiRecord } from "../../data/records/realm-emoji.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { isFullMember, realmSettings, rolePolicyAllows } from "../../domain/realm-settings.js";
import { emojiNameError, realmEmojiDict } from "../../domain/realm-emoji.js";
import { isGuest, isRealmAdmin } from "../../domain/roles.js";
import { loadEmojiNames } from "../../emoji/load.js";
import { HumanUsersOnlyError, InsufficientPermissionError, JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import { avatarObjectKeys } from "../../storage/object-keys.js";
import { checkImageFile, resizeUploadedImage } from "../users/avatar.js";

/**
 * Custom emoji (https://zulip.com/api/upload-custom-emoji,
 * https://zulip.com/api/deactivate-custom-emoji; Zulip's `upload_emoji` and
 * `delete_emoji` views, `check_add_realm_emoji`, `do_remove_realm_emoji`
 * and `upload_emoji_image`).
 */

/** Zulip's `DEFAULT_EMOJI_SIZE`: custom emoji are stored within 64×64 pixels. */
const EMOJI_SIZE = 64;

/** Longest emoji name accepted, in characters (a bound on the key and the request; Zulip has none). */
export const MAX_EMOJI_NAME_LENGTH = 100;

/** Emoji images are immutable per object key (a new upload gets a new name). */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** MIME type of each format an emoji keeps (Zulip's inline image types that it thumbnails). */
const EMOJI_TYPES: Record<string, string> = { png: "image/png", gif: "image/gif", jpeg: "image/jpeg", webp: "image/webp" };

const EMOJI_FORMATS: ReadonlySet<string> = new Set(Object.keys(EMOJI_TYPES));

/** Zulip's `RealmEmoji` namespace: the realm's emoji, active and deactivated. One Query. */
export async function realmEmojiList(deps: Deps, realmId: number): Promise<RealmEmojiRecord[]> {
  return listRealmEmoji(deps, realmId);
}

/**
 * Zulip's `notify_realm_emoji`: `realm_emoji` `update` with every custom
 * emoji of the realm (https://zulip.com/api/get-events#realm_emoji-update)
 * to the realm's active users. Call only after the change is stored.
 */
export async function notifyRealmEmoji(deps: Deps, realmId: number, list: readonly RealmEmojiRecord[]): Promise<void> {
  const audience = (await listActiveRealmUsers(deps, realmId)).map((u) => u.user_id);
  await sendEvent(deps, { type: "realm_emoji", op: "update", realm_emoji: realmEmojiDict(list) }, audience);
}

/**
 * `POST /realm/emoji/{emoji_name}` (Zulip's `upload_emoji` and
 * `check_add_realm_emoji`): checks, in Zulip's order, that the caller is a
 * human non-guest, the name (spaces become `_`), the realm's
 * `add_custom_emoji_policy`, that no active emoji has the name, that the
 * body has exactly one file, that only administrators override a Unicode
 * emoji name, the size, and that the bytes are an image of a kept format.
 * The image is made 64×64 (a still one cropped, an animation padded, every
 * frame kept; an animated one also gets a still PNG of its first frame,
 * cropped), stored, then the record and its
 * name claim are written in one transaction; the realm gets `realm_emoji`.
 * @param maxBytes the largest file accepted, in bytes
 * @throws JsonableError 400 `Not allowed for guest users`, `This endpoint does not accept bot requests.`,
 *   the name errors of {@link emojiNameError}, `Insufficient permission`,
 *   `A custom emoji with this name already exists.`, `You must upload exactly one file.`,
 *   `Only administrators can override built-in emoji.`,
 *   `Uploaded file is larger than the allowed limit of <n> MiB`,
 *   and the BadImageError of `checkImageFile` and `resizeUploadedImage` (`BAD_IMAGE`)
 */
export async function checkAddRealmEmoji(
  deps: FilesDeps,
  realm: RealmRecord,
  user: UserRecord,
  rawName: string,
  upload: { files: { bytes: Uint8Array; truncated: boolean }[]; count: number },
  maxBytes: number,
): Promise<void> {
  if (isGuest(user)) throw new JsonableError("Not allowed for guest users");
  if (user.is_bot) throw new HumanUsersOnlyError();
  const name = rawName.trim().replace(/ /g, "_");
  if ([...name].length > MAX_EMOJI_NAME_LENGTH) throw new JsonableError("Emoji name is too long");
  const nameError = emojiNameError(name);
  if (nameError) throw new JsonableError(nameError);
  const policy = Number(realmSettings(realm).add_custom_emoji_policy);
  if (!rolePolicyAllows(policy, user, isFullMember(realm, user, Math.floor(deps.clock.now() / 1000)))) {
    throw new InsufficientPermissionError("Insufficient permission");
  }
  const existing = await listRealmEmoji(deps, realm.id);
  const taken = () => new JsonableError("A custom emoji with this name already exists.");
  if (existing.some((e) => e.name === name && !e.deactivated)) throw taken();
  if (upload.count !== 1 || upload.files.length !== 1) throw new JsonableError("You must upload exactly one file.");
  if (!isRealmAdmin(user) && (await loadEmojiNames()).isValidEmojiName(name)) {
    throw new JsonableError("Only administrators can override built-in emoji.");
  }
  const file = upload.files[0]!;
  if (file.truncated || file.bytes.length > maxBytes) {
    throw new JsonableError(`Uploaded file is larger than the allowed limit of ${maxBytes / (1024 * 1024)} MiB`);
  }
  const info = await checkImageFile(file.bytes, EMOJI_FORMATS);
  const contentType = EMOJI_TYPES[info.format]!;

  const animated = info.frames > 1;
  const format = info.format as "png" | "gif" | "jpeg" | "webp";
  // Zulip's `resize_emoji`: a still image (and an animation's still) is cropped to the square; an
  // animation keeps its whole frames, padded to the square with transparency.
  const box = { width: EMOJI_SIZE, height: EMOJI_SIZE };
  const [image, still] = await Promise.all([
    resizeUploadedImage(file.bytes, { ...box, fit: animated ? "contain" : "cover", format, animated }),
    animated ? resizeUploadedImage(file.bytes, { ...box, fit: "cover", format: "png", animated: false }) : Promise.resolve(undefined),
  ]);
  const id = await allocateIds(deps, "realm_emoji");
  // Random, so emoji URLs cannot be enumerated; Zulip salts a hash of the ID for the same reason.
  const fileName = `${randomBytes(8).toString("hex")}.${format}`;
  const objectKeys = [avatarObjectKeys.emoji(realm.id, fileName)];
  await deps.files.put(objectKeys[0]!, image, { contentType, cacheControl: IMMUTABLE });
  if (still) {
    objectKeys.push(avatarObjectKeys.emojiStill(realm.id, fileName));
    await deps.files.put(objectKeys[1]!, still, { contentType: "image/png", cacheControl: IMMUTABLE });
  }
  const emoji: RealmEmojiRecord = {
    id,
    realm_id: realm.id,
    name,
    file_name: fileName,
    is_animated: animated,
    deactivated: false,
    author_id: user.user_id,
  };
  if (!(await putRealmEmoji(deps, emoji))) {
    // Another upload of the same name won between the check and the write.
    await deps.files.delete(objectKeys);
    throw taken();
  }
  await notifyRealmEmoji(deps, realm.id, [...existing, emoji]);
}

/**
 * `DELETE /realm/emoji/{emoji_name}` (Zulip's `delete_emoji`,
 * `check_remove_custom_emoji` and `do_remove_realm_emoji`): deactivates an
 * active custom emoji; administrators may deactivate any, others only their
 * own. The image stays (old messages, reactions and statuses show it). The
 * realm gets `realm_emoji`.
 * @throws JsonableError 404 `Emoji '<name>' does not exist`;
 *   400 `Must be an organization administrator or emoji author`
 */
export async function checkRemoveRealmEmoji(deps: Deps, realm: RealmRecord, user: UserRecord, name: string): Promise<void> {
  const list = await listRealmEmoji(deps, realm.id);
  const emoji = list.find((e) => e.name === name && !e.deactivated);
  const missing = () => new JsonableError(`Emoji '${name}' does not exist`, { httpStatus: 404 });
  if (!emoji) throw missing();
  if (!isRealmAdmin(user) && emoji.author_id !== user.user_id) {
    throw new JsonableError("Must be an organization administrator or emoji author");
  }
  if (!(await deactivateRealmEmoji(deps, emoji))) throw missing();
  await notifyRealmEmoji(
    deps,
    realm.id,
    list.map((e) => (e.id === emoji.id ? { ...e, deactivated: true } : e)),
  );
}
