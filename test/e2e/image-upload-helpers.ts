import sharp from "sharp";
import type { ApiResponse, TestUser } from "../support/api-client.js";
import type { TestOrg } from "../support/local-stack.js";

/** One file part of a multipart request. */
export interface FilePart {
  field?: string;
  name: string;
  type: string;
  bytes: Uint8Array;
}

/**
 * Sends a multipart/form-data request as `user` with file parts (and text
 * fields), the way zulip-js and the Python client upload files.
 * @param path below /api/v1
 */
export async function sendFiles(
  org: TestOrg,
  user: TestUser | null,
  method: string,
  path: string,
  files: FilePart[],
  fields: Record<string, string> = {},
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  files.forEach((f, i) => form.append(f.field ?? `file-${i}`, new Blob([Buffer.from(f.bytes)], { type: f.type }), f.name));
  const headers: Record<string, string> = {};
  if (user) headers.authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`;
  const res = await fetch(`${org.url}/api/v1${path}`, { method, headers, body: form });
  const text = await res.text();
  let body: Record<string, any>;
  try {
    body = JSON.parse(text);
  } catch {
    body = { raw: text };
  }
  return { status: res.status, headers: res.headers, body };
}

/** A solid-colour PNG of the given size. */
export async function pngBytes(width: number, height: number, color = "#3366cc"): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width, height, channels: 4, background: color } }).png().toBuffer());
}

/** A two-frame animated GIF of the given size. */
export async function animatedGifBytes(width: number, height: number): Promise<Uint8Array> {
  const frame = (color: string) => sharp({ create: { width, height, channels: 4, background: color } }).png().toBuffer();
  const frames = await Promise.all([frame("red"), frame("blue")]);
  return new Uint8Array(await sharp(frames, { join: { animated: true } }).gif().toBuffer());
}

/** An image's format, size and frame count, read from its bytes. */
export async function imageInfo(bytes: Uint8Array): Promise<{ format?: string; width?: number; height?: number; pages: number }> {
  const m = await sharp(bytes).metadata();
  return { format: m.format, width: m.width, height: m.height, pages: m.pages ?? 1 };
}

/**
 * Follows a `/user_avatars/...` path (as `source_url` or `avatar_url` give
 * it, without credentials): asserts the redirect and returns the bytes
 * behind it.
 */
export async function fetchServedImage(org: TestOrg, path: string): Promise<{ redirect: Response; bytes: Uint8Array; type: string | null }> {
  const redirect = await fetch(new URL(path, org.url), { redirect: "manual" });
  const location = redirect.headers.get("location");
  if (redirect.status !== 302 || !location) throw new Error(`expected a redirect for ${path}, got ${redirect.status}`);
  const res = await fetch(location);
  if (res.status !== 200) throw new Error(`presigned GET of ${path} answered ${res.status}`);
  return { redirect, bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get("content-type") };
}
