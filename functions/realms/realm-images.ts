import { checkDeleteRealmIcon, checkDeleteRealmLogo, checkUploadRealmIcon, checkUploadRealmLogo } from "../../shared/actions/realms/realm-images.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { Endpoint } from "../../shared/http/context.js";
import { multipartFiles } from "../../shared/http/multipart.js";
import { param, parseParams } from "../../shared/http/params.js";
import { requireRealmAdmin } from "../../shared/access/user.js";

/** Largest icon or logo file: the upload limit (a Lambda request cannot carry Zulip's 5 MiB). */
function maxBytesOf(ctx: Parameters<Endpoint>[0]): number {
  return ctx.deps.config.MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024;
}

/** `POST /realm/icon` (Zulip's `upload_icon`; not in the OpenAPI file): one image file; answers `icon_url`. */
export const uploadRealmIcon: Endpoint<FilesDeps> = async (ctx) => {
  const upload = await multipartFiles(ctx, { maxFileBytes: maxBytesOf(ctx), maxFiles: 2 });
  return checkUploadRealmIcon(ctx.deps, ctx.realm, ctx.user, upload, maxBytesOf(ctx));
};

/** `DELETE /realm/icon` (Zulip's `delete_icon_backend`): back to the gravatar; answers `icon_url`. */
export const deleteRealmIcon: Endpoint<FilesDeps> = async (ctx) => checkDeleteRealmIcon(ctx.deps, ctx.realm, ctx.user);

/** `POST /realm/logo` (Zulip's `upload_logo`): one image file and the required JSON boolean `night`. */
export const uploadRealmLogo: Endpoint<FilesDeps> = async (ctx) => {
  // Zulip checks the role before it reads `night`.
  requireRealmAdmin(ctx.user);
  const { night } = parseParams(ctx.params, { night: param.bool() });
  const upload = await multipartFiles(ctx, { maxFileBytes: maxBytesOf(ctx), maxFiles: 2 });
  await checkUploadRealmLogo(ctx.deps, ctx.realm, ctx.user, night, upload, maxBytesOf(ctx));
};

/** `DELETE /realm/logo` (Zulip's `delete_logo_backend`): the day or `night` logo back to the default. */
export const deleteRealmLogo: Endpoint<FilesDeps> = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const { night } = parseParams(ctx.params, { night: param.bool() });
  await checkDeleteRealmLogo(ctx.deps, ctx.realm, ctx.user, night);
};
