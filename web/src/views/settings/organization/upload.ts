import { parseResponse, readCookie } from "../../../api/client.js";
import { ApiError } from "../../../api/client.js";

/**
 * Posts a multipart form (a file and its fields) to `/json<path>` with the
 * session's CSRF token, as the image uploads of organization settings need
 * (`POST /realm/icon`, `/realm/logo`, `/realm/emoji/{name}`); resolves with
 * the success body.
 * @throws ApiError with the server's message, or code `NETWORK` when the request never got an answer
 */
export async function postFile<T = Record<string, unknown>>(path: string, file: File, fields: Record<string, string> = {}): Promise<T> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  body.set("file", file, file.name);
  let res: Response;
  try {
    res = await fetch(`/json${path}`, {
      method: "POST",
      headers: { "X-CSRFToken": readCookie(document.cookie, "csrftoken") ?? "" },
      body,
      credentials: "same-origin",
    });
  } catch (e) {
    throw new ApiError(0, "NETWORK", e instanceof Error ? e.message : String(e));
  }
  return parseResponse<T>(res);
}
