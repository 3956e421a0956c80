/**
 * The browser's client of the server: every call goes to `/json/<path>` (Zulip's
 * prefix for session-authenticated calls) with the session cookie, which the
 * browser sends itself, and the `X-CSRFToken` header read from the `csrftoken`
 * cookie (double submit). The API key never reaches this code.
 */

/** A Zulip error envelope (`result: "error"`) or a transport failure, as thrown by {@link ApiClient.call}. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the request never got an answer (offline, aborted). */
    readonly status: number,
    /** Zulip's `code` (`BAD_REQUEST`, `BAD_EVENT_QUEUE_ID`, …); `NETWORK` for a transport failure. */
    readonly code: string,
    message: string,
    /** The whole error body, for fields such as `queue_id` or `retry-after`. */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type ParamValue = string | number | boolean | null | undefined | readonly unknown[] | Record<string, unknown>;

/**
 * Encodes parameters the way Zulip's API takes them: form-encoded, with lists and
 * objects JSON-encoded (https://zulip.com/api/http-headers). `undefined` leaves a
 * parameter out.
 */
export function encodeParams(params: Record<string, ParamValue>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    out.set(key, typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));
  }
  return out;
}

/** Reads one cookie of the page (`document.cookie`); undefined when absent. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** What the app needs of the network: one method, so tests pass a fake. */
export interface ApiClient {
  /**
   * Calls `/json<path>` and resolves with the success body.
   * @throws ApiError with the server's `msg` and `code` for an error envelope or a non-JSON answer,
   *   and code `NETWORK` (status 0) when the request failed to reach the server.
   */
  call<T = Record<string, unknown>>(
    method: HttpMethod,
    path: string,
    params?: Record<string, ParamValue>,
    options?: CallOptions,
  ): Promise<T>;
}

/** The client over `fetch`, reading the CSRF token from `document.cookie` at every call (it changes at each login). */
export function createFetchClient(
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
  cookies: () => string = () => document.cookie,
): ApiClient {
  return {
    async call<T>(method: HttpMethod, path: string, params: Record<string, ParamValue> = {}, options: CallOptions = {}) {
      const body = encodeParams(params);
      const hasQuery = method === "GET" || method === "DELETE";
      const url = `/json${path}${hasQuery && [...body.keys()].length > 0 ? `?${body}` : ""}`;
      const headers: Record<string, string> = { "X-CSRFToken": readCookie(cookies(), "csrftoken") ?? "" };
      if (!hasQuery) headers["Content-Type"] = "application/x-www-form-urlencoded";
      let res: Response;
      try {
        res = await fetchImpl(url, {
          method,
          headers,
          body: hasQuery ? undefined : body,
          credentials: "same-origin",
          signal: options.signal,
        });
      } catch (e) {
        throw new ApiError(0, "NETWORK", e instanceof Error ? e.message : String(e));
      }
      return parseResponse<T>(res);
    },
  };
}

/** Parses a Zulip envelope; see {@link ApiClient.call} for what it throws. */
export async function parseResponse<T>(res: Response): Promise<T> {
  let json: Record<string, unknown>;
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    throw new ApiError(res.status, "BAD_RESPONSE", `The server answered ${res.status} without a JSON body.`);
  }
  if (!res.ok || json.result !== "success") {
    throw new ApiError(res.status, String(json.code ?? "BAD_REQUEST"), String(json.msg ?? res.statusText), json);
  }
  return json as T;
}
