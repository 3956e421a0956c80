import { checkUploadFile } from "../../shared/actions/uploads/upload-file.js";
import type { Endpoint } from "../../shared/http/context.js";
import { readMultipartFiles } from "../../shared/http/multipart.js";
import { header } from "../../shared/http/raw-params.js";

/**
 * `POST /user_uploads` (https://zulip.com/api/upload-file): stores the one
 * file of a multipart/form-data body (any field name) and answers its URL
 * path as `url` and, deprecated, `uri`.
 */
export const uploadFile: Endpoint = async (ctx) => {
  const maxSizeMib = ctx.deps.config.MAX_FILE_UPLOAD_SIZE_MIB;
  const contentType = header({ headers: ctx.headers as Record<string, string> }, "content-type") ?? "";
  const files = await readMultipartFiles(ctx.body, contentType, { maxBytes: maxSizeMib * 1024 * 1024, maxFiles: 1 });
  const { url } = await checkUploadFile(ctx.deps, ctx.realm, ctx.user, files, maxSizeMib);
  return { uri: url, url };
};
