import { ApiError, parseResponse, readCookie } from "./client.js";

/**
 * Posts a `multipart/form-data` body to `/json<path>` with the session's CSRF
 * token (the API client sends forms urlencoded; files need multipart): avatars,
 * a bot with its avatar, the organization's icon and logos, custom emoji.
 * Resolves with the success body.
 * @throws ApiError with the server's `msg` and `code`, or code `NETWORK` (status 0) when the request got no answer
 */
export async function postForm<T = Record<string, unknown>>(path: string, form: FormData): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/json${path}`, {
      method: "POST",
      headers: { "X-CSRFToken": readCookie(document.cookie, "csrftoken") ?? "" },
      body: form,
      credentials: "same-origin",
    });
  } catch (e) {
    throw new ApiError(0, "NETWORK", e instanceof Error ? e.message : String(e));
  }
  return parseResponse<T>(res);
}

/** {@link postForm} with one file under the field `file` and the given text fields. */
export function postFile<T = Record<string, unknown>>(path: string, file: File, fields: Record<string, string> = {}): Promise<T> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", file, file.name);
  return postForm<T>(path, form);
}
