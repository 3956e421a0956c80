import type { FilesDeps } from "../../deps.js";
import { setRealmImage, type RealmImageKind } from "../../data/realm-images.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { DEFAULT_AVATAR_SIZE, realmIconUrl, realmLogoUrl } from "../../domain/avatar.js";
import { realmUrl } from "../../domain/email.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { JsonableError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { avatarObjectKeys } from "../../storage/object-keys.js";
import { AVATAR_IMAGE_FORMATS, checkImageFile, checkSquareImages, type ImageUpload, resizeUploadedImage } from "../users/avatar.js";
import { notifyRealmUpdateDict } from "./notify.js";

/**
 * The organization's icon and wide logos (Zulip's `upload_icon`,
 * `delete_icon_backend`, `upload_logo`, `delete_logo_backend`,
 * `do_change_icon_source` and `do_change_logo_source`; routes that Zulip's
 * OpenAPI file does not describe). Administrators only.
 */

/** Zulip's `resize_logo` box: at most 8 × 100 pixels wide and 100 high, the whole logo kept. */
const LOGO_BOX = { width: 8 * DEFAULT_AVATAR_SIZE, height: DEFAULT_AVATAR_SIZE };

const IMMUTABLE = "public, max-age=31536000, immutable";

/** The `<kind>_source` and `<kind>_version` of a realm (absent: the default source, version 1). */
function current(realm: RealmRecord, kind: RealmImageKind): { source: string; version: number } {
  const defaults = kind === "icon" ? "G" : "D";
  return { source: realm[`${kind}_source`] ?? defaults, version: realm[`${kind}_version`] ?? 1 };
}

/**
 * Stores the new source with the next version, sends `realm` `update_dict`
 * with the image's URL and source to the realm's active users, and removes
 * the replaced upload's object.
 * @returns the realm as changed
 */
async function doChangeRealmImage(deps: FilesDeps, realm: RealmRecord, kind: RealmImageKind, source: "G" | "D" | "U"): Promise<RealmRecord> {
  const before = current(realm, kind);
  if (!(await setRealmImage(deps, realm.id, kind, source, before.version))) {
    throw new JsonableError("The organization changed at the same time; please try again.");
  }
  const after = { ...realm, [`${kind}_source`]: source, [`${kind}_version`]: before.version + 1 } as RealmRecord;
  const data: Record<string, string> =
    kind === "icon"
      ? { icon_url: realmIconUrl(after), icon_source: source }
      : kind === "logo"
        ? { logo_url: realmLogoUrl(after, false, realmUrl(after, deps.config)), logo_source: source }
        : { night_logo_url: realmLogoUrl(after, true, realmUrl(after, deps.config)), night_logo_source: source };
  const audience = (await listActiveRealmUsers(deps, realm.id)).map((u) => u.user_id);
  await notifyRealmUpdateDict(deps, data, audience);
  if (before.source === "U") await deps.files.delete([avatarObjectKeys.realmImage(realm.id, kind, before.version)]);
  return after;
}

/**
 * `POST /realm/icon` (Zulip's `upload_icon`): one image, rendered 100×100
 * (`cover`, PNG); `icon_source` becomes `U`.
 * @returns `{icon_url}`
 * @throws OrganizationAdministratorRequiredError; JsonableError `You must upload exactly one icon.`,
 *   the size and image errors of `checkSquareImages`
 */
export async function checkUploadRealmIcon(
  deps: FilesDeps,
  realm: RealmRecord,
  user: UserRecord,
  upload: ImageUpload,
  maxBytes: number,
): Promise<{ icon_url: string }> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const [icon] = await checkSquareImages(upload, maxBytes, "You must upload exactly one icon.", [DEFAULT_AVATAR_SIZE]);
  const version = current(realm, "icon").version + 1;
  await deps.files.put(avatarObjectKeys.realmImage(realm.id, "icon", version), icon!, { contentType: "image/png", cacheControl: IMMUTABLE });
  return { icon_url: realmIconUrl(await doChangeRealmImage(deps, realm, "icon", "U")) };
}

/**
 * `DELETE /realm/icon` (Zulip's `delete_icon_backend`): back to the gravatar.
 * @returns `{icon_url}`
 * @throws OrganizationAdministratorRequiredError
 */
export async function checkDeleteRealmIcon(deps: FilesDeps, realm: RealmRecord, user: UserRecord): Promise<{ icon_url: string }> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  return { icon_url: realmIconUrl(await doChangeRealmImage(deps, realm, "icon", "G")) };
}

/**
 * `POST /realm/logo` (Zulip's `upload_logo`): one image, kept whole within
 * 800×100 (PNG); the day or `night` logo's source becomes `U`.
 * @throws OrganizationAdministratorRequiredError; JsonableError `You must upload exactly one logo.`,
 *   `Uploaded file is larger than the allowed limit of <n> MiB`; the BadImageError of `checkImageFile` and `resizeUploadedImage`
 */
export async function checkUploadRealmLogo(
  deps: FilesDeps,
  realm: RealmRecord,
  user: UserRecord,
  night: boolean,
  upload: ImageUpload,
  maxBytes: number,
): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  if (upload.count !== 1 || upload.files.length !== 1) throw new JsonableError("You must upload exactly one logo.");
  const file = upload.files[0]!;
  if (file.truncated || file.bytes.length > maxBytes) {
    throw new JsonableError(`Uploaded file is larger than the allowed limit of ${maxBytes / (1024 * 1024)} MiB`);
  }
  await checkImageFile(file.bytes, AVATAR_IMAGE_FORMATS);
  const logo = await resizeUploadedImage(file.bytes, { ...LOGO_BOX, fit: "inside", format: "png", withoutEnlargement: true });
  const kind = night ? "night_logo" : "logo";
  const version = current(realm, kind).version + 1;
  await deps.files.put(avatarObjectKeys.realmImage(realm.id, kind, version), logo, { contentType: "image/png", cacheControl: IMMUTABLE });
  await doChangeRealmImage(deps, realm, kind, "U");
}

/**
 * `DELETE /realm/logo` (Zulip's `delete_logo_backend`): the day or `night`
 * logo back to Zulip's default.
 * @throws OrganizationAdministratorRequiredError
 */
export async function checkDeleteRealmLogo(deps: FilesDeps, realm: RealmRecord, user: UserRecord, night: boolean): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  await doChangeRealmImage(deps, realm, night ? "night_logo" : "logo", "D");
}
