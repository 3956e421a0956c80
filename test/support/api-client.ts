import { validateEvent } from "../../shared/events/schemas.js";

/**
 * A tiny HTTP client for end-to-end tests that encodes parameters the way
 * the Python `zulip` client does: strings as they are, every other value
 * JSON-encoded, sent form-urlencoded in the body (query string for GET).
 */
export interface TestUser {
  id: number;
  email: string;
  apiKey: string;
  fullName: string;
  role: number;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

export function encodeParams(params: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return out;
}

/**
 * Sends one request with Zulip's parameter encoding: a query string for
 * `GET`, a form-encoded body otherwise; the answer's body parsed as JSON
 * (`{ raw: text }` when it is not JSON).
 * @param url the whole URL without the query string
 * @param redirect `manual` to see a redirect's own answer (file links)
 */
export async function sendRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string>,
  redirect: RequestRedirect = "follow",
): Promise<ApiResponse> {
  const encoded = encodeParams(params);
  const sent = { ...headers };
  let body: string | undefined;
  if (method === "GET") {
    const qs = encoded.toString();
    if (qs) url += `?${qs}`;
  } else {
    body = encoded.toString();
    sent["content-type"] = "application/x-www-form-urlencoded";
  }
  const res = await fetch(url, { method, headers: sent, body, redirect });
  return { status: res.status, headers: res.headers, body: await parseBody(res) };
}

/** A response's body as JSON, or `{ raw: text }` when it is not JSON. */
export async function parseBody(res: Response): Promise<Record<string, any>> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}

/**
 * Calls the API as `user` (or anonymously with `null`).
 * @param path below /api/v1, e.g. `/users/me`
 */
export async function call(
  baseUrl: string,
  user: Pick<TestUser, "email" | "apiKey"> | null,
  method: string,
  path: string,
  params: Record<string, unknown> = {},
  extraHeaders: Record<string, string> = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (user) headers.authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`;
  const res = await sendRequest(`${baseUrl}/api/v1${path}`, method, params, headers);
  // Every event any end-to-end test receives is checked against its strict schema.
  if (method === "GET" && path.split("?")[0] === "/events" && Array.isArray(res.body.events)) {
    for (const event of res.body.events) validateEvent(event);
  }
  return res;
}
