import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";

/**
 * The built web app's files (`web/dist`: `index.html` and the hashed files
 * of `assets/`), read from a directory: on AWS the copy bundled into the
 * `web` Lambda's asset, locally the repository's `web/dist`.
 *
 * Each file is kept in memory with its gzip and brotli forms after its
 * first read. The forms come from `<name>.gz` / `<name>.br` beside the file
 * when they exist ({@link precompressSiteFiles} writes them when the Lambda
 * asset is built: brotli's best quality takes seconds of a 128 MB Lambda's
 * CPU share on a large script), else they are made at the first read.
 */

/** Content codings a site file may be stored in besides identity. */
export type SiteCoding = "br" | "gzip";

/** One file of the site, with its content type and compressed forms. */
export interface SiteFile {
  /** Path below the site's root, `/`-separated (`assets/index-4f2a.js`). */
  path: string;
  /** `Content-Type` header value, e.g. `text/javascript; charset=utf-8`. */
  contentType: string;
  /** The bytes as stored. */
  bytes: Buffer;
  /** Compressed forms, each present only when smaller than {@link bytes}. */
  encoded: Partial<Record<SiteCoding, Buffer>>;
  /** A hash of {@link bytes} (hex, 20 characters): the base of the entity tags. */
  hash: string;
}

/** Reads files of the built site. */
export interface SiteFiles {
  /**
   * The file at `relativePath` below the site's root.
   * @param relativePath `/`-separated, already percent-decoded (`assets/app-1b2c.css`)
   * @returns undefined for a path that is absent, a directory, or not plainly below the root
   *   ({@link safeSitePath}); never reads outside the root
   */
  read(relativePath: string): Promise<SiteFile | undefined>;
}

/** Content types by file extension (lower case); anything else is `application/octet-stream`. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".wasm": "application/wasm",
};

/** Extensions worth compressing: text formats (images and fonts are compressed already). */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".map", ".webmanifest", ".txt", ".svg", ".ico", ".ttf", ".otf", ".wasm"]);

/** Suffixes of the stored compressed forms; a request for one of them is not a site file. */
const CODING_SUFFIX: Record<SiteCoding, string> = { br: ".br", gzip: ".gz" };

/** Longest path accepted, in characters (Vite's names are far shorter). */
const MAX_PATH_LENGTH = 512;

/** The `Content-Type` of a file name, from {@link CONTENT_TYPES}. */
export function siteContentType(name: string): string {
  return CONTENT_TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream";
}

/**
 * A request path made safe to join below the site's root, or undefined:
 * no empty, `.` or `..` segment, no segment starting with a dot (hidden
 * files, Vite's `.vite/` manifest), no backslash or NUL, not a stored
 * compressed form (`.br`, `.gz`), at most {@link MAX_PATH_LENGTH} characters.
 * @param relativePath already percent-decoded
 */
export function safeSitePath(relativePath: string): string | undefined {
  if (relativePath.length === 0 || relativePath.length > MAX_PATH_LENGTH) return undefined;
  if (/[\\\0]/.test(relativePath)) return undefined;
  const segments = relativePath.split("/");
  if (segments.some((s) => s === "" || s.startsWith("."))) return undefined;
  if (Object.values(CODING_SUFFIX).some((suffix) => relativePath.endsWith(suffix))) return undefined;
  return segments.join("/");
}

const COMPRESS: Record<SiteCoding, (data: Buffer) => Buffer> = {
  // Done once per file (at build time, or at the first read locally): the best compression is worth its time.
  br: (data) =>
    brotliCompressSync(data, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
  gzip: (data) => gzipSync(data, { level: 9 }),
};

/** The compressed forms of a file's bytes that are smaller than the bytes (none for incompressible types). */
function compressedForms(name: string, bytes: Buffer): Partial<Record<SiteCoding, Buffer>> {
  if (!COMPRESSIBLE.has(path.extname(name).toLowerCase())) return {};
  const forms: Partial<Record<SiteCoding, Buffer>> = {};
  for (const coding of Object.keys(COMPRESS) as SiteCoding[]) {
    const encoded = COMPRESS[coding](bytes);
    if (encoded.length < bytes.length) forms[coding] = encoded;
  }
  return forms;
}

async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    return (await stat(file)).isFile() ? await readFile(file) : undefined;
  } catch {
    return undefined;
  }
}

async function loadSiteFile(root: string, relative: string): Promise<SiteFile | undefined> {
  const file = path.resolve(root, ...relative.split("/"));
  // safeSitePath already refuses `..`; this keeps the promise whatever the path syntax of the platform.
  if (!file.startsWith(root + path.sep)) return undefined;
  const bytes = await readIfFile(file);
  if (!bytes) return undefined;
  const stored = Object.fromEntries(
    await Promise.all(
      (Object.keys(CODING_SUFFIX) as SiteCoding[]).map(async (c) => [c, await readIfFile(file + CODING_SUFFIX[c])] as const),
    ),
  ) as Partial<Record<SiteCoding, Buffer>>;
  const precompressed = Object.values(stored).some((b) => b !== undefined);
  const encoded = precompressed
    ? Object.fromEntries(Object.entries(stored).filter(([, b]) => b !== undefined && b.length < bytes.length))
    : compressedForms(relative, bytes);
  return {
    path: relative,
    contentType: siteContentType(relative),
    bytes,
    encoded,
    hash: createHash("sha256").update(bytes).digest("hex").slice(0, 20),
  };
}

/**
 * The site files of a directory, each read once and then served from
 * memory (the files of a deployment never change; locally, a rebuilt
 * `web/dist` is seen after a restart of `npm start`). Absent files are not
 * remembered, so unknown paths cost a `stat` each and no memory.
 * @param root the directory holding `index.html` (need not exist: every read then finds nothing)
 */
export function siteFilesFromDirectory(root: string): SiteFiles {
  const base = path.resolve(root);
  const cache = new Map<string, Promise<SiteFile | undefined>>();
  return {
    async read(relativePath) {
      const relative = safeSitePath(relativePath);
      if (relative === undefined) return undefined;
      const cached = cache.get(relative);
      if (cached) return cached;
      const loading = loadSiteFile(base, relative);
      cache.set(relative, loading);
      const found = await loading;
      if (!found) cache.delete(relative);
      return found;
    },
  };
}

/**
 * Writes `<name>.br` and `<name>.gz` beside every compressible file below
 * `dir` whose compressed form is smaller (run on the copy of `web/dist` in
 * the `web` Lambda's asset, so the Lambda never compresses).
 * @returns the number of compressed files written
 */
export function precompressSiteFiles(dir: string): number {
  let written = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: false }) as string[]) {
    const file = path.join(dir, entry);
    if (!statSync(file).isFile() || safeSitePath(entry.split(path.sep).join("/")) === undefined) continue;
    const forms = compressedForms(entry, readFileSync(file));
    for (const [coding, bytes] of Object.entries(forms) as [SiteCoding, Buffer][]) {
      writeFileSync(file + CODING_SUFFIX[coding], bytes);
      written++;
    }
  }
  return written;
}
