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
  const encoded = encodeParams(params);
  const headers: Record<string, string> = { ...extraHeaders };
  if (user) headers.authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`;
  let url = `${baseUrl}/api/v1${path}`;
  let body: string | undefined;
  if (method === "GET") {
    const qs = encoded.toString();
    if (qs) url += `?${qs}`;
  } else {
    body = encoded.toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: Record<string, any>;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { raw: text };
  }
  // Every event any end-to-end test receives is checked against its strict schema.
  if (method === "GET" && path.split("?")[0] === "/events" && Array.isArray(parsed.events)) {
    for (const event of parsed.events) validateEvent(event);
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
