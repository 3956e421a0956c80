import busboy from "busboy";
import { multipartFileName } from "../domain/uploads.js";
import { JsonableError } from "../errors.js";
import type { ApiContext } from "./context.js";
import { header } from "./raw-params.js";

/** One file part of a `multipart/form-data` body. */
export interface UploadedFile {
  /** The form field's name (Zulip reads every file field, whatever its name). */
  field: string;
  /** The client's file name as Django reads it ({@link multipartFileName}); not sanitized further. */
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
  /** Most file fields kept; parts of any further fields are counted, not read. @default 10 */
  maxFiles?: number;
}

/**
 * The file parts of a request's `multipart/form-data` body, parsed with
 * busboy (text fields are already in `ctx.params`). A request of any other
 * content type has no files. The body is in memory already (API Gateway
 * delivers it whole, base64-encoded), so the limits bound the copies only.
 * Files are read as Django's `request.FILES` gives them to Zulip's views:
 * one per field name (a later part of the same field replaces the earlier
 * one), and a part without a usable file name is no file.
 * @returns the files kept and how many file fields the body had in all
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
    // Per field name, the latest part read (by its position in the body).
    const byField = new Map<string, { index: number; file: UploadedFile }>();
    // Every file field seen, and those read (the first `maxFiles`).
    const fields = new Set<string>();
    const reading = new Set<string>();
    // Each file part's stream may end after the parser closes: wait for all of them.
    const pending: Promise<void>[] = [];
    let parts = 0;
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
      const filename = multipartFileName(info.filename);
      if (filename !== null) fields.add(field);
      if (filename === null || (!reading.has(field) && reading.size >= maxFiles)) {
        stream.resume();
        return;
      }
      reading.add(field);
      const index = parts++;
      const chunks: Buffer[] = [];
      let truncated = false;
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => (truncated = true));
      pending.push(
        new Promise<void>((done) => {
          stream.on("close", () => {
            const file = {
              field,
              filename,
              contentType: info.mimeType || "application/octet-stream",
              bytes: Buffer.concat(chunks),
              truncated,
            };
            if ((byField.get(field)?.index ?? -1) < index) byField.set(field, { index, file });
            done();
          });
        }),
      );
    });
    parser.on("error", () => reject(new JsonableError("Malformed request body")));
    parser.on("close", () => {
      void Promise.all(pending).then(() => {
        const files = [...byField.values()].sort((a, b) => a.index - b.index).map((f) => f.file);
        resolve({ files, count: fields.size });
      });
    });
    parser.end(ctx.body);
  });
}
