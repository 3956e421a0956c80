/**
 * `GET /external_content/{digest}/{received_url}`: this server as the
 * camo proxy of external images in messages (`shared/camo.ts`). It fetches
 * only what it signed, and only safely:
 *
 * - the digest must be the HMAC of the URL with the camo key (403 otherwise);
 * - http(s) only; the host is resolved first and every address must be
 *   public (`shared/net/public-address.ts`: no loopback, private, link-local
 *   or metadata address), then the connection goes to that checked address
 *   (no second lookup an attacker's DNS could answer differently);
 * - at most {@link MAX_REDIRECTS} redirects, each checked the same way;
 * - images only: a raster `image/*` content type and bytes that are one
 *   (PNG, JPEG, GIF, WebP, BMP, ICO, AVIF/HEIC); never SVG (it can script);
 * - at most {@link MAX_IMAGE_BYTES} and {@link FETCH_TIMEOUT_MS} in all.
 *
 * @see https://zulip.readthedocs.io/en/latest/production/deployment.html#camo-configuration (Zulip's `handle_camo_url`)
 */
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { verifyCamoPath } from "../../camo.js";
import { JsonableError } from "../../errors.js";
import { isPublicAddress } from "../../net/public-address.js";

/** Largest image served (Lambda's 6 MB response carries the body base64-encoded). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
/** Time for the whole fetch, redirects included. */
export const FETCH_TIMEOUT_MS = 5000;
/** Redirects followed. */
export const MAX_REDIRECTS = 3;

/** The upstream answer to one request. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: (AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>) & { destroy?: () => void };
}

/** Network access, replaceable in tests. */
export interface ExternalFetchIo {
  /** Every address of a host name (A and AAAA). */
  resolve: (hostname: string) => Promise<string[]>;
  /** One GET of `url`, connecting to `address` (already checked). */
  request: (url: URL, address: string, signal: AbortSignal) => Promise<UpstreamResponse>;
}

/** An image fetched for a reader. */
export interface ExternalImage {
  contentType: string;
  body: Buffer;
}

class NotFound extends JsonableError {
  constructor(msg = "Not Found") {
    super(msg, { code: "NOT_FOUND", httpStatus: 404 });
  }
}

async function resolveAll(hostname: string): Promise<string[]> {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

function nodeRequest(url: URL, address: string, signal: AbortSignal): Promise<UpstreamResponse> {
  const family = isIP(address);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: "GET",
        signal,
        headers: { accept: "image/*", "user-agent": "Zulip-compatible camo proxy" },
        // Connect to the address we checked, never to a second answer of the resolver.
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (options.all) callback(null, [{ address, family }]);
          else callback(null, address, family);
        }) as unknown as LookupFunction,
      },
      (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res as Readable }),
    );
    req.on("error", reject);
    req.end();
  });
}

const DEFAULT_IO: ExternalFetchIo = { resolve: resolveAll, request: nodeRequest };

/** The image type its first bytes show, or undefined when they are no raster image we serve. */
export function sniffImageType(bytes: Buffer): string | undefined {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString("latin1");
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (ascii(0, 2) === "BM" && bytes.length >= 26) return "image/bmp";
  if (bytes.length >= 6 && bytes.readUInt32BE(0) === 0x00000100) return "image/x-icon";
  if (ascii(4, 8) === "ftyp") {
    const brand = ascii(8, 12);
    if (brand === "avif" || brand === "avis") return "image/avif";
    if (brand === "heic" || brand === "heix" || brand === "mif1") return "image/heic";
  }
  return undefined;
}

function header(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A URL's host, checked: every address public. Returns the address to connect to. */
async function checkedAddress(url: URL, io: ExternalFetchIo): Promise<string> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new NotFound();
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await io.resolve(host);
  } catch {
    throw new NotFound();
  }
  // Every answer must be public: a host with one private address is refused outright.
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw new NotFound();
  return addresses[0]!;
}

async function readLimited(response: UpstreamResponse): Promise<Buffer> {
  const declared = Number(header(response, "content-length"));
  if (Number.isFinite(declared) && declared > MAX_IMAGE_BYTES) throw new NotFound("Content length exceeded");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_IMAGE_BYTES) {
      response.body.destroy?.();
      throw new NotFound("Content length exceeded");
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * Fetches the image a camo path names, for `GET /external_content/…`.
 * @param camoKey the server's camo key; undefined: the proxy is off (404)
 * @throws JsonableError 403 for a digest the key did not make; 404 when off,
 *   for a malformed path, a refused address, a failed fetch or one too big;
 *   400 `Unsupported content-type returned` for anything but a raster image;
 *   504 when the upstream takes too long
 */
export async function fetchExternalImage(
  camoKey: string | undefined,
  digest: string,
  hexUrl: string,
  io: ExternalFetchIo = DEFAULT_IO,
): Promise<ExternalImage> {
  if (!camoKey) throw new NotFound();
  const verified = verifyCamoPath(camoKey, digest, hexUrl);
  if ("error" in verified) {
    if (verified.error === "digest") throw new JsonableError("Forbidden", { code: "FORBIDDEN", httpStatus: 403 });
    throw new NotFound();
  }
  let url: URL;
  try {
    url = new URL(verified.url);
  } catch {
    throw new NotFound();
  }
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  try {
    for (let redirects = 0; ; redirects++) {
      const address = await checkedAddress(url, io);
      const response = await io.request(url, address, signal);
      const location = header(response, "location");
      if (response.status >= 300 && response.status < 400 && location) {
        response.body.destroy?.();
        if (redirects >= MAX_REDIRECTS) throw new NotFound();
        url = new URL(location, url);
        continue;
      }
      if (response.status !== 200) {
        response.body.destroy?.();
        throw new NotFound();
      }
      const declared = (header(response, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (!declared.startsWith("image/") || declared.includes("svg")) {
        response.body.destroy?.();
        throw new JsonableError("Unsupported content-type returned", { httpStatus: 400 });
      }
      const body = await readLimited(response);
      const contentType = sniffImageType(body);
      if (contentType === undefined) throw new JsonableError("Unsupported content-type returned", { httpStatus: 400 });
      return { contentType, body };
    }
  } catch (error) {
    if (error instanceof JsonableError) throw error;
    if (signal.aborted) throw new JsonableError("Upstream timed out", { code: "TIMEOUT", httpStatus: 504 });
    throw new NotFound();
  }
}
