import { checkUploadFile } from "../../shared/actions/uploads/upload-file.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { Endpoint } from "../../shared/http/context.js";
import { multipartFiles } from "../../shared/http/multipart.js";

/**
 * `POST /user_uploads` (https://zulip.com/api/upload-file): stores the one
 * file of a multipart/form-data body (any field name) and answers its URL
 * path as `url` and, deprecated, `uri`.
 */
export const uploadFile: Endpoint<FilesDeps> = async (ctx) => {
  const maxSizeMib = ctx.deps.config.MAX_FILE_UPLOAD_SIZE_MIB;
  // Two parts are read so that a second file is refused rather than ignored.
  const upload = await multipartFiles(ctx, { maxFileBytes: maxSizeMib * 1024 * 1024, maxFiles: 2 });
  const files = upload.files.map((file) => ({
    ...file,
    // busboy's default for a part without a type: let the file name decide instead.
    contentType: file.contentType === "application/octet-stream" ? "" : file.contentType,
  }));
  const { url } = await checkUploadFile(ctx.deps, ctx.realm, ctx.user, files, maxSizeMib);
  return { uri: url, url };
};
