import { ApiError, parseResponse, readCookie } from "../../../api/client.js";

/**
 * Posts a `multipart/form-data` body to `/json<path>` with the session's
 * CSRF token (the API client sends forms only urlencoded; a file needs
 * multipart): the avatar upload and a bot's creation with an avatar.
 * @throws ApiError with the server's message, or code `NETWORK` when the request did not reach it
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
