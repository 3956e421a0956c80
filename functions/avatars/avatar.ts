import { checkDeleteAvatar, checkSetAvatar } from "../../shared/actions/users/avatar.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { Endpoint } from "../../shared/http/context.js";
import { multipartFiles } from "../../shared/http/multipart.js";

/**
 * `POST /users/me/avatar` (Zulip's `set_avatar_backend`; not in the OpenAPI
 * file): one image file in a multipart body (any field name), at most
 * `MAX_FILE_UPLOAD_SIZE_MIB` (below Zulip's 5 MiB avatar limit, because a
 * Lambda request cannot carry more). Answers `avatar_url`.
 */
export const setAvatar: Endpoint<FilesDeps> = async (ctx) => {
  const maxBytes = ctx.deps.config.MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024;
  const upload = await multipartFiles(ctx, { maxFileBytes: maxBytes, maxFiles: 2 });
  return checkSetAvatar(ctx.deps, ctx.realm, ctx.user, upload, maxBytes);
};

/** `DELETE /users/me/avatar` (Zulip's `delete_avatar_backend`): back to the gravatar; answers `avatar_url`. */
export const deleteAvatar: Endpoint<FilesDeps> = async (ctx) => checkDeleteAvatar(ctx.deps, ctx.realm, ctx.user);
