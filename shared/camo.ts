/**
 * Camo-compatible URLs of external images (Zulip's `get_camo_url`): a
 * message never makes a reader's browser load an image from a host the
 * sender chose; it loads `/external_content/<digest>/<hex url>` from this
 * server, which fetches the image (`actions/uploads/external-content.ts`).
 * The digest is the HMAC-SHA1 (hex) of the URL with the server's camo key,
 * so the proxy fetches only URLs this server put in a message.
 *
 * @see https://zulip.readthedocs.io/en/latest/production/deployment.html#camo-configuration
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The site-root path prefix of proxied images. */
export const CAMO_PATH_PREFIX = "/external_content/";

/** HMAC-SHA1 of `url` with `key`, lowercase hex (go-camo's and Zulip's digest). */
export function camoDigest(key: string, url: string): string {
  return createHmac("sha1", key).update(url, "utf8").digest("hex");
}

/**
 * `/external_content/<digest>/<url as lowercase hex of its UTF-8 bytes>`.
 * @example camoPath("k", "https://x.test/a.png") // "/external_content/<40 hex>/68747470…"
 */
export function camoPath(key: string, url: string): string {
  return `${CAMO_PATH_PREFIX}${camoDigest(key, url)}/${Buffer.from(url, "utf8").toString("hex")}`;
}

/**
 * The URL a proxied path names, when its digest is right.
 * @returns `{ url }`; `{ error: "malformed" }` for a hex part that is not
 *   hex-encoded UTF-8; `{ error: "digest" }` for a digest this key did not make
 */
export function verifyCamoPath(key: string, digest: string, hexUrl: string): { url: string } | { error: "malformed" | "digest" } {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hexUrl)) return { error: "malformed" };
  const url = Buffer.from(hexUrl, "hex").toString("utf8");
  if (Buffer.from(url, "utf8").toString("hex") !== hexUrl.toLowerCase()) return { error: "malformed" };
  const expected = Buffer.from(camoDigest(key, url), "utf8");
  const given = Buffer.from(digest.toLowerCase(), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { error: "digest" };
  return { url };
}
