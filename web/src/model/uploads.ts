/**
 * The text side of uploading files from the compose box, as Zulip's web app
 * does it (https://zulip.com/help/share-and-upload-files): a placeholder
 * `[Uploading name…]()` on its own line while the file uploads, replaced by
 * the link `[name](/user_uploads/…)` when it is stored, or removed when the
 * upload fails or is cancelled; and the size check made before any byte is sent.
 */

/** Bytes in one MiB, the unit of `max_file_upload_size_mib`. */
const MIB = 1024 * 1024;

/** Zulip's words when the organization allows no uploads (`max_file_upload_size_mib` 0). */
export const UPLOADS_DISABLED = "File and image uploads have been disabled for this organization.";

/**
 * Why a file may not be uploaded, checked before the upload starts, in Zulip's
 * words ("photo.png exceeds the maximum file size for attachments (4 MB)."),
 * or null when it may.
 * @param file its name and size in bytes
 * @param maxSizeMib `max_file_upload_size_mib` of register (https://zulip.com/api/register-queue); undefined: no check
 */
export function uploadRefusal(file: { name: string; size: number }, maxSizeMib: number | undefined): string | null {
  if (maxSizeMib === undefined) return null;
  if (maxSizeMib === 0) return UPLOADS_DISABLED;
  if (file.size > maxSizeMib * MIB) return `${file.name} exceeds the maximum file size for attachments (${maxSizeMib} MB).`;
  return null;
}

/** The text compose holds while `name` uploads (Zulip's `[Uploading name…]()`). */
export function uploadingPlaceholder(name: string): string {
  return `[Uploading ${name}…]()`;
}

/** The Markdown link to an uploaded file: its name without square brackets (they would end the link text), then its URL path. */
export function uploadedLink(name: string, url: string): string {
  return `[${name.replaceAll("[", "").replaceAll("]", "")}](${url})`;
}

/** A text and where the caret goes in it. */
export interface TextEdit {
  text: string;
  caret: number;
}

/**
 * Inserts `syntax` as a line of its own in place of the selection
 * `[start, end)`: a line break before it unless it starts a line, one after it
 * unless one follows already. The caret lands after the inserted line.
 */
export function insertBlock(text: string, start: number, end: number, syntax: string): TextEdit {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before === "" || before.endsWith("\n") ? "" : "\n";
  const trail = after.startsWith("\n") ? "" : "\n";
  const inserted = `${lead}${syntax}${trail}`;
  return { text: before + inserted + after, caret: before.length + inserted.length };
}

/**
 * Replaces the first occurrence of `from` with `to` (the placeholder with the
 * link; with `""` it removes the placeholder and the line break after it, so
 * no empty line is left). `replaced` is false when the person deleted the placeholder.
 */
export function replaceText(text: string, from: string, to: string): { text: string; replaced: boolean } {
  const at = text.indexOf(from);
  if (at < 0) return { text, replaced: false };
  let endAt = at + from.length;
  if (to === "" && text[endAt] === "\n") endAt += 1;
  return { text: text.slice(0, at) + to + text.slice(endAt), replaced: true };
}

/**
 * Compose's text once an upload finished: the placeholder becomes the link;
 * when the placeholder is gone (deleted by hand), the link is added on a line
 * of its own at the end, as Zulip inserts it where the caret is.
 */
export function finishUpload(text: string, name: string, url: string): string {
  const link = uploadedLink(name, url);
  const r = replaceText(text, uploadingPlaceholder(name), link);
  return r.replaced ? r.text : insertBlock(text, text.length, text.length, link).text;
}

/**
 * A size for people (Zulip's `bytes_to_size`): powers of 1000, one decimal
 * under ten ("0 B", "950 B", "1.5 KB", "12 KB", "3.2 MB").
 */
export function formatFileSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  if (bytes <= 0) return "0 B";
  const i = Math.min(units.length - 1, Math.floor(Math.log10(bytes) / 3));
  const scaled = bytes / 1000 ** i;
  const shown = i > 0 && scaled < 10 ? Math.round(scaled * 10) / 10 : Math.round(scaled);
  return `${shown} ${units[i]}`;
}

/**
 * The organization's upload space used against its quota (Zulip's uploaded
 * files page): "Organization using 12% of 1 GB.", or its use alone without a quota.
 * @param usedBytes `upload_space_used` of `GET /attachments`
 * @param quotaMib `realm_upload_quota_mib` of register; null or undefined: no quota
 */
export function uploadSpaceText(usedBytes: number, quotaMib: number | null | undefined): string {
  if (quotaMib === null || quotaMib === undefined) return `Organization using ${formatFileSize(usedBytes)} of upload space.`;
  const quota = quotaMib * MIB;
  const percent = quota > 0 ? Math.round((usedBytes / quota) * 1000) / 10 : 100;
  return `Organization using ${percent}% of ${formatFileSize(quota)}.`;
}
