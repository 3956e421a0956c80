import busboy from "busboy";
import { JsonableError } from "../errors.js";
import type { ApiContext } from "./context.js";
import { header } from "./raw-params.js";

/** One file part of a `multipart/form-data` body. */
export interface UploadedFile {
  /** The form field's name (Zulip reads every file field, whatever its name). */
  field: string;
  /** The client's file name, as sent (not sanitized). */
  filename: string;
  /** The part's declared MIME type (never trusted for images: the bytes decide). */
  contentType: string;
  bytes: Buffer;
  /** Whether the part was cut at `maxFileBytes` (the file is larger than the limit). */
  truncated: boolean;
}

/** Bounds on what {@link multipartFiles} reads. */
export interface MultipartLimits {
  /** Largest file part kept, in bytes; a larger one comes back `truncated`. */
  maxFileBytes: number;
  /** Most file parts kept; any further ones are counted, not read. @default 10 */
  maxFiles?: number;
}

/**
 * The file parts of a request's `multipart/form-data` body, parsed with
 * busboy (text fields are already in `ctx.params`). A request of any other
 * content type has no files. The body is in memory already (API Gateway
 * delivers it whole, base64-encoded), so the limits bound the copies only.
 * @returns the files kept and how many file parts the body had in all
 * @throws JsonableError 400 `Malformed request body` when the multipart framing is broken
 */
export async function multipartFiles(
  ctx: Pick<ApiContext, "body" | "headers">,
  limits: MultipartLimits,
): Promise<{ files: UploadedFile[]; count: number }> {
  const contentType = header({ headers: ctx.headers }, "content-type") ?? "";
  if (!ctx.body || !contentType.toLowerCase().startsWith("multipart/form-data")) return { files: [], count: 0 };
  const maxFiles = limits.maxFiles ?? 10;
  return new Promise((resolve, reject) => {
    const files: UploadedFile[] = [];
    // Each file part's stream may end after the parser closes: wait for all of them.
    const pending: Promise<void>[] = [];
    let count = 0;
    let parser: busboy.Busboy;
    try {
      // File names arrive as UTF-8 (browsers and the Zulip clients send them so), not busboy's default Latin-1.
      parser = busboy({
        headers: { "content-type": contentType },
        limits: { fileSize: limits.maxFileBytes },
        defParamCharset: "utf8",
      });
    } catch {
      reject(new JsonableError("Malformed request body"));
      return;
    }
    parser.on("file", (field, stream, info) => {
      count += 1;
      if (count > maxFiles) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let truncated = false;
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => (truncated = true));
      pending.push(
        new Promise<void>((done) => {
          stream.on("close", () => {
            files.push({
              field,
              filename: info.filename ?? "",
              contentType: info.mimeType || "application/octet-stream",
              bytes: Buffer.concat(chunks),
              truncated,
            });
            done();
          });
        }),
      );
    });
    parser.on("error", () => reject(new JsonableError("Malformed request body")));
    parser.on("close", () => {
      void Promise.all(pending).then(() => resolve({ files, count }));
    });
    parser.end(ctx.body);
  });
}
