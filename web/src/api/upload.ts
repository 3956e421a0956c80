/**
 * Uploading a file (`POST /json/user_uploads`, https://zulip.com/api/upload-file)
 * over XMLHttpRequest rather than `fetch`: only XHR reports upload progress.
 * Like `client.ts`, it sends the session cookie (the browser does) and the
 * `X-CSRFToken` header read from the `csrftoken` cookie.
 */
import { ApiError, readCookie } from "./client.js";

/** Progress of one upload: bytes sent so far and the body's total (both from the browser's upload events). */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Options of {@link UploadFn}. */
export interface UploadOptions {
  onProgress?(progress: UploadProgress): void;
  /** Aborting rejects with an ApiError of code `ABORTED` (status 0). */
  signal?: AbortSignal;
}

/** Uploads one file; resolves with its URL path (`/user_uploads/<realm>/<…>/<name>`). */
export type UploadFn = (file: File, options?: UploadOptions) => Promise<{ url: string }>;

/** The XMLHttpRequest surface {@link createXhrUploader} uses, so tests can pass a fake. */
export type XhrFactory = () => XMLHttpRequest;

/**
 * The uploader over XMLHttpRequest: one multipart body with the file under the
 * field `file` (the server takes any field name), reading the CSRF token at each call.
 * @throws ApiError with the server's `msg` and `code` (such as "Uploaded file is larger than the allowed
 *   limit of 4 MiB" or `REALM_UPLOAD_QUOTA`), `NETWORK` when no answer came, `ABORTED` when cancelled
 */
export function createXhrUploader(
  newXhr: XhrFactory = () => new XMLHttpRequest(),
  cookies: () => string = () => document.cookie,
): UploadFn {
  return (file, options = {}) =>
    new Promise((resolve, reject) => {
      const xhr = newXhr();
      const form = new FormData();
      form.append("file", file, file.name);
      const onAbort = () => xhr.abort();
      const done = () => options.signal?.removeEventListener("abort", onAbort);
      xhr.open("POST", "/json/user_uploads");
      xhr.setRequestHeader("X-CSRFToken", readCookie(cookies(), "csrftoken") ?? "");
      xhr.withCredentials = true;
      xhr.upload.addEventListener("progress", (e) => {
        if (e.lengthComputable) options.onProgress?.({ loaded: e.loaded, total: e.total });
      });
      xhr.addEventListener("load", () => {
        done();
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(xhr.responseText) as Record<string, unknown>;
        } catch {
          return reject(new ApiError(xhr.status, "BAD_RESPONSE", `The server answered ${xhr.status} without a JSON body.`));
        }
        if (xhr.status >= 200 && xhr.status < 300 && body.result === "success" && typeof body.url === "string") {
          return resolve({ url: body.url });
        }
        reject(new ApiError(xhr.status, String(body.code ?? "BAD_REQUEST"), String(body.msg ?? xhr.statusText), body));
      });
      xhr.addEventListener("error", () => {
        done();
        reject(new ApiError(0, "NETWORK", "The upload could not reach the server."));
      });
      xhr.addEventListener("abort", () => {
        done();
        reject(new ApiError(0, "ABORTED", "The upload was cancelled."));
      });
      if (options.signal?.aborted) return reject(new ApiError(0, "ABORTED", "The upload was cancelled."));
      options.signal?.addEventListener("abort", onAbort);
      xhr.send(form);
    });
}
