import busboy from "busboy";
import { JsonableError } from "../errors.js";

/** One file part of a multipart/form-data body. */
export interface UploadedFilePart {
  /** The form field's name (Zulip takes any field name for the one file). */
  field: string;
  /** The client's file name, as sent (unsanitized); `""` when it sent none. */
  filename: string;
  /** The part's `Content-Type`; `""` when the client sent none or the generic default. */
  contentType: string;
  bytes: Buffer;
  /** Whether the part was longer than the limit (then `bytes` holds only its first `maxBytes`). */
  truncated: boolean;
}

/**
 * Reads the file parts of a multipart/form-data request body with busboy
 * (the body is whole: API Gateway hands the Lambda the complete, base64
 * encoded payload). Text fields are left to the ordinary parameter parsing.
 * @param body the decoded request body
 * @param contentType the request's `Content-Type` (with its boundary)
 * @param limits.maxBytes bytes kept per file; a longer file is marked `truncated`
 * @param limits.maxFiles file parts read at most (one more is reported so callers can refuse "too many")
 * @returns the file parts in body order; none for a body that is not multipart
 * @throws JsonableError 400 `Malformed request body` when the multipart framing is broken
 */
export async function readMultipartFiles(
  body: Buffer | undefined,
  contentType: string,
  limits: { maxBytes: number; maxFiles: number },
): Promise<UploadedFilePart[]> {
  if (!body || !contentType.toLowerCase().startsWith("multipart/form-data")) return [];
  return new Promise((resolve, reject) => {
    const files: UploadedFilePart[] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        limits: { fileSize: limits.maxBytes, files: limits.maxFiles + 1 },
        defParamCharset: "utf8",
      });
    } catch {
      reject(new JsonableError("Malformed request body"));
      return;
    }
    parser.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      const part: UploadedFilePart = {
        field,
        filename: info.filename ?? "",
        contentType: info.mimeType === "application/octet-stream" ? "" : (info.mimeType ?? ""),
        bytes: Buffer.alloc(0),
        truncated: false,
      };
      files.push(part);
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => {
        part.truncated = true;
      });
      stream.on("end", () => {
        part.bytes = Buffer.concat(chunks);
      });
    });
    parser.on("error", () => reject(new JsonableError("Malformed request body")));
    parser.on("close", () => resolve(files));
    parser.end(body);
  });
}
