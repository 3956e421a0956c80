import {
  doCreateTemporaryFileUrl,
  temporaryFileRedirectUrl,
  uploadedFileRedirectUrl,
} from "../../shared/actions/uploads/serve-file.js";
import { thumbnailRedirectUrl } from "../../shared/actions/uploads/serve-thumbnail.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { Endpoint, PublicEndpoint } from "../../shared/http/context.js";
import { RedirectResult } from "../../shared/http/response.js";

/**
 * `GET /user_uploads/{realm_id_str}/{filename}` at the site root (the
 * links messages carry; Zulip's `serve_file_backend`): a 302 to a
 * short-lived presigned URL of the file, for a user who may see it or,
 * without credentials, a spectator of a web-public stream linking it.
 */
export const serveUploadedFile: PublicEndpoint<FilesDeps> = async (ctx) =>
  new RedirectResult(
    await uploadedFileRedirectUrl(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.realm_id_str ?? "", ctx.pathParams.filename ?? ""),
  );

/**
 * `GET /user_uploads/download/{realm_id_str}/{filename}` at the site root
 * (Zulip's `serve_file_download_backend`): as {@link serveUploadedFile}, but
 * the file is served as a download (`Content-Disposition: attachment`).
 */
export const serveFileDownload: PublicEndpoint<FilesDeps> = async (ctx) =>
  new RedirectResult(
    await uploadedFileRedirectUrl(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.realm_id_str ?? "", ctx.pathParams.filename ?? "", true),
  );

/**
 * `GET /api/v1/user_uploads/{realm_id_str}/{filename}`
 * (https://zulip.com/api/get-file-temporary-url): `url`, a path that serves
 * the file without credentials for a minute.
 */
export const getFileTemporaryUrl: Endpoint = async (ctx) => ({
  url: await doCreateTemporaryFileUrl(
    ctx.deps,
    ctx.realm,
    ctx.user,
    ctx.pathParams.realm_id_str ?? "",
    ctx.pathParams.filename ?? "",
  ),
});

/**
 * `GET /user_uploads/temporary/{token}/{filename}` (Zulip's
 * `serve_file_unauthed_from_token`): a 302 to the file a live token names; no credentials.
 */
export const serveFileFromToken: PublicEndpoint<FilesDeps> = async (ctx) =>
  new RedirectResult(await temporaryFileRedirectUrl(ctx.deps, ctx.pathParams.token ?? "", ctx.pathParams.filename ?? ""));

/**
 * `GET /user_uploads/thumbnail/{realm_id_str}/{filename}` at the site root
 * (the `src` of image previews; `server_thumbnail_formats` in
 * https://zulip.com/api/register-queue): a 302 to the thumbnail, for whoever
 * may see the image.
 */
export const serveThumbnail: PublicEndpoint<FilesDeps> = async (ctx) =>
  new RedirectResult(
    await thumbnailRedirectUrl(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.realm_id_str ?? "", ctx.pathParams.filename ?? ""),
  );
