/**
 * Rules for uploaded files without storage: file-name sanitizing, path IDs,
 * the MIME types served inline, and the `Content-Disposition` they get.
 * The behaviour follows Zulip's `zerver/lib/upload/__init__.py`
 * (`sanitize_name`, `get_file_info`) and `zerver/lib/mime_types.py`.
 */

/** Longest file name a multipart part keeps, in characters (Django's `UploadedFile` name limit). */
export const MAX_MULTIPART_FILE_NAME_LENGTH = 255;

/**
 * The name a multipart file part is known by, as Django reads
 * `request.FILES` for Zulip (`MultiPartParser.sanitize_file_name`, then
 * `UploadedFile`'s name rule): the last segment after `/` or `\\`, without
 * non-printable characters, cut to {@link MAX_MULTIPART_FILE_NAME_LENGTH}
 * characters with its extension kept. A part without a usable name (none,
 * empty, `.` or `..`) is no file at all.
 * @returns the name, or null when the part is not a file
 * @example multipartFileName("C:\\tmp\\a.txt") === "a.txt"; multipartFileName("..") === null
 */
export function multipartFileName(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const segment = raw.slice(Math.max(raw.lastIndexOf("/"), raw.lastIndexOf("\\")) + 1);
  // Python's `str.isprintable`: no control, format, surrogate, private-use, unassigned or separator characters but the space.
  const name = segment.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu, "");
  if (name === "" || name === "." || name === "..") return null;
  const chars = [...name];
  if (chars.length <= MAX_MULTIPART_FILE_NAME_LENGTH) return name;
  // Python's `os.path.splitext`: the extension starts at the last dot that follows a character other than a dot.
  const dot = name.lastIndexOf(".");
  const hasExt = dot > 0 && /[^.]/.test(name.slice(0, dot));
  const ext = hasExt ? [...name.slice(dot)].slice(0, MAX_MULTIPART_FILE_NAME_LENGTH) : [];
  const root = hasExt ? [...name.slice(0, dot)] : chars;
  return [...root.slice(0, MAX_MULTIPART_FILE_NAME_LENGTH - ext.length), ...ext].join("");
}

/**
 * Makes a client's file name safe for a URL path segment and an S3 key
 * (Zulip's `sanitize_name`): NFKC-normalized; every character other than a
 * letter, digit, `_`, `.`, `-` or whitespace dropped; surrounding whitespace
 * trimmed; each run of whitespace and dashes turned into one `-`. A name
 * left empty, `.` or `..` becomes `uploaded-file`.
 * @example sanitizeUploadName("my résumé (final).pdf") === "my-résumé-final.pdf"
 */
export function sanitizeUploadName(name: string): string {
  let value = name.normalize("NFKC");
  value = value.replace(/[^\p{L}\p{N}\p{M}_\s.-]/gu, "").trim();
  value = value.replace(/[-\s]+/gu, "-");
  if (value === "" || value === "." || value === "..") return "uploaded-file";
  return value;
}

/**
 * Most UTF-8 bytes of the sanitized name in a path ID: the path ID is an S3
 * key and part of DynamoDB sort keys (1,024 bytes each), after a prefix of
 * at most ~45 bytes and, in a message's claim, ~30 more.
 */
export const MAX_UPLOAD_PATH_NAME_BYTES = 900;

/**
 * A sanitized name ({@link sanitizeUploadName}) cut to at most `maxBytes`
 * UTF-8 bytes at a character boundary, its extension (up to 16
 * characters) kept. Zulip has no such bound; names of up to 255 letters of
 * four bytes each need it.
 */
export function capUploadPathName(name: string, maxBytes = MAX_UPLOAD_PATH_NAME_BYTES): string {
  if (Buffer.byteLength(name, "utf8") <= maxBytes) return name;
  const ext = /\.[^.]{1,16}$/.exec(name)?.[0] ?? "";
  let budget = maxBytes - Buffer.byteLength(ext, "utf8");
  let root = "";
  for (const ch of name.slice(0, name.length - ext.length)) {
    budget -= Buffer.byteLength(ch, "utf8");
    if (budget < 0) break;
    root += ch;
  }
  return root + ext;
}

/**
 * Types a browser may show in place (Zulip's `INLINE_MIME_TYPES`): every
 * other type is served as a download, so an uploaded HTML or SVG file never
 * runs in the server's origin.
 */
export const INLINE_MIME_TYPES: ReadonlySet<string> = new Set([
  "application/pdf",
  "audio/aac",
  "audio/flac",
  "audio/mp4",
  "audio/mpeg",
  "audio/wav",
  "audio/webm",
  "image/apng",
  "image/avif",
  "image/gif",
  "image/jpeg",
  "image/png",
  "image/webp",
  "text/plain",
  "video/mp4",
  "video/webm",
]);

/** Common extensions → MIME type, for a file the client sent without a type (Python's `mimetypes` subset). */
const TYPE_BY_EXTENSION: Record<string, string> = {
  apng: "image/apng",
  avif: "image/avif",
  bmp: "image/bmp",
  csv: "text/csv",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  flac: "audio/flac",
  gif: "image/gif",
  gz: "application/gzip",
  htm: "text/html",
  html: "text/html",
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  js: "text/javascript",
  json: "application/json",
  md: "text/markdown",
  mp3: "audio/mpeg",
  mp4: "video/mp4",
  pdf: "application/pdf",
  png: "image/png",
  svg: "image/svg+xml",
  tif: "image/tiff",
  tiff: "image/tiff",
  txt: "text/plain",
  wav: "audio/wav",
  webm: "video/webm",
  webp: "image/webp",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xml: "text/xml",
  zip: "application/zip",
};

/**
 * The MIME type stored with an upload: the client's, else guessed from the
 * file name's extension, else `application/octet-stream` (Zulip's `get_file_info`).
 */
export function uploadContentType(clientType: string, fileName: string): string {
  const given = clientType.trim();
  if (given !== "") return given;
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return (ext && TYPE_BY_EXTENSION[ext]) || "application/octet-stream";
}

/** A MIME type without its parameters, lower-cased: `text/plain; charset=utf-8` → `text/plain`. */
export function bareContentType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

/** Whether a file of this type is shown in place rather than downloaded. */
export function isInlineContentType(contentType: string): boolean {
  return INLINE_MIME_TYPES.has(bareContentType(contentType));
}

/**
 * The `Content-Disposition` of a served file (as Django's
 * `content_disposition_header`): `inline` for {@link INLINE_MIME_TYPES}
 * unless `forceDownload`, else `attachment`; the name quoted when it is
 * plain ASCII, RFC 5987 `filename*` otherwise.
 */
export function uploadContentDisposition(fileName: string, contentType: string, forceDownload = false): string {
  const disposition = forceDownload || !isInlineContentType(contentType) ? "attachment" : "inline";
  if (/^[\x20-\x7e]*$/.test(fileName)) {
    return `${disposition}; filename="${fileName.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  }
  return `${disposition}; filename*=utf-8''${encodeURIComponent(fileName)}`;
}

/**
 * An upload's path ID as Zulip's S3 backend names keys:
 * `<realm_id>/<2 hex>/<24 URL-safe random>/<sanitized name>`.
 * @param random the two random parts (the caller draws them from a CSPRNG)
 */
export function buildUploadPathId(realmId: number, random: { prefix: string; name: string }, sanitizedName: string): string {
  return `${realmId}/${random.prefix}/${random.name}/${sanitizedName}`;
}

/** The URL path of an upload: `/user_uploads/<path_id>` (what messages link and `POST /user_uploads` answers). */
export function uploadUrl(pathId: string): string {
  return `/user_uploads/${pathId}`;
}
