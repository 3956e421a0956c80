/**
 * Inline image previews (Zulip's `message_inline_image`): which links get
 * one and the preview's markup.
 *
 * Rules (Zulip's `InlineInterestingLinkProcessor`, with Camo disabled):
 *
 * - a link counts as an image when its URL path ends with one of Zulip's
 *   image extensions ({@link IMAGE_EXTENSIONS}, case-insensitive; query and
 *   fragment ignored); `pasteboard.co` pages never do;
 * - a `/user_uploads/<realm_id>/…` link counts only for an upload of the
 *   organization rendering the message (another organization's file stays a
 *   plain link);
 * - a GitHub `…/blob/…` link previews the raw file
 *   (`raw.githubusercontent.com`), a Wikipedia `/wiki/File:` page its
 *   `Special:FilePath` image;
 * - the preview's `<img>` of an external image goes through the camo proxy
 *   when the render has one (`RenderLookups.externalImageUrl`: this
 *   server's `/external_content/<digest>/<hex url>`, Zulip's `get_camo_url`),
 *   so a reader's browser never loads from a host the sender chose; the
 *   organization's own URLs are not proxied; without a proxy, the URL itself
 *   (Zulip with Camo disabled);
 * - with upload lookups (`RenderLookups.uploadPreviews`), a
 *   `/user_uploads/…` link is an image when its upload decoded as one, and
 *   its `<img>` is the thumbnail (`/user_uploads/thumbnail/…`), or a
 *   placeholder while the thumbnail is made (Zulip's
 *   `image-loading-placeholder`, replaced later by a `rendering_only`
 *   edit: {@link replaceUploadPlaceholders}).
 *
 * Placement, deduplication and the per-message limit live in the HTML pass
 * (`constructs/core-html.ts`, `index.ts`).
 *
 * @see https://zulip.com/api/message-formatting (inline image previews)
 */
import { escapeHtml } from "../html.js";
import type { UploadPreview } from "./types.js";
import { uploadPathId } from "./url.js";

/** The `src` of a preview whose thumbnail is not made yet (Zulip's loading indicator). */
export const THUMBNAIL_PLACEHOLDER_SRC = "/static/images/loading/loader-black.svg";

/**
 * The `<img>` of an uploaded image's preview, attributes in Zulip's
 * (alphabetical) order: the thumbnail with the original's dimensions (and
 * `data-animated`), or the placeholder while the thumbnail is made.
 */
function uploadImageTag(preview: UploadPreview): string {
  const dimensions = `data-original-dimensions="${preview.width}x${preview.height}"`;
  if (preview.thumbnailUrl === undefined) {
    return `<img class="image-loading-placeholder" ${dimensions} src="${THUMBNAIL_PLACEHOLDER_SRC}">`;
  }
  const animated = preview.animated ? `data-animated="true" ` : "";
  return `<img ${animated}${dimensions} src="${escapeHtml(preview.thumbnailUrl)}">`;
}

/** Zulip's `IMAGE_EXTENSIONS` for previews. */
export const IMAGE_EXTENSIONS: readonly string[] = [".bmp", ".gif", ".jpe", ".jpeg", ".jpg", ".png", ".webp"];

/**
 * Zulip's `INLINE_PREVIEW_LIMIT_PER_MESSAGE`: a message linking more distinct
 * URLs than this (outside quotes) gets no previews at all.
 */
export const INLINE_PREVIEW_LIMIT = 24;

/** A preview waiting for its paragraph to close. */
export interface PendingPreview {
  /** The `<div class="message_inline_image">…</div>` markup. */
  html: string;
  /** The link's own markup (`<a …>…</a>`), to tell whether it is alone in its paragraph. */
  linkHtml: string;
  /** The link's text is its URL, so a paragraph holding only it is replaced by the preview. */
  removable: boolean;
}

/** The URL's host and path, or undefined when it is not a URL we can read. */
function hostAndPath(href: string): { host: string; path: string } | undefined {
  if (href.startsWith("/") && !href.startsWith("//")) return { host: "", path: href.split(/[?#]/, 1)[0] };
  if (/^user_uploads\//.test(href)) return { host: "", path: "/" + href.split(/[?#]/, 1)[0] };
  try {
    const url = new URL(href.startsWith("//") ? `https:${href}` : href);
    return { host: url.hostname.toLowerCase(), path: url.pathname };
  } catch {
    return undefined;
  }
}

/** GitHub `…/blob/…` pages and Wikipedia `File:` pages: the image they show (Zulip's rewrites). */
function actualImageUrl(href: string, host: string, path: string): string {
  if (host === "github.com" || host.endsWith(".github.com")) {
    const parts = path.split("/");
    if (parts.length > 3 && parts[3] === "blob") {
      return `https://raw.githubusercontent.com${[...parts.slice(0, 3), ...parts.slice(4)].join("/")}`;
    }
  }
  return href;
}

/** A Wikipedia `/wiki/File:` page points at its image (the link changes too, as in Zulip). */
function correctedImageSource(href: string, host: string, path: string): string | undefined {
  if (host.endsWith(".wikipedia.org") && path.startsWith("/wiki/File:")) {
    const url = new URL(href);
    url.pathname = path.replace("/wiki/File:", "/wiki/Special:FilePath/File:");
    return url.toString();
  }
  return undefined;
}

/**
 * The preview of a rendered link, or undefined when it is not an image.
 *
 * @param href The link's `href` as rendered (sanitized; organization links relative).
 * @param text The link's leading text as plain text (Zulip's `a.text`); `null` when it starts with markup.
 * @param realmId The organization rendering the message; uploads of others are not previewed.
 *   Undefined: any `/user_uploads/` image is (rendering outside an organization, e.g. tests).
 * @param uploads The organization's uploaded images by path ID; see `RenderLookups.uploadPreviews`.
 * @param proxy The camo URL of an external image (`RenderLookups.externalImageUrl`); undefined: no proxy.
 * @param realmUrl The organization's URL: images under it are not proxied.
 * @returns the markup, whether it may replace its paragraph, and the upload's path ID when it is a placeholder
 */
export function inlineImagePreview(
  href: string,
  text: string | null,
  realmId: number | undefined,
  uploads?: ReadonlyMap<string, UploadPreview>,
  proxy?: (url: string) => string,
  realmUrl?: string,
): { html: string; removable: boolean; pendingPathId?: string } | undefined {
  const parsed = hostAndPath(href);
  if (!parsed || parsed.host === "pasteboard.co") return undefined;
  const { host, path } = parsed;
  if (host === "" && realmId !== undefined && path.startsWith("/user_uploads/") && !path.startsWith(`/user_uploads/${realmId}/`)) {
    return undefined;
  }
  if (uploads !== undefined && href.startsWith("/user_uploads/")) {
    const pathId = uploadPathId(href);
    const upload = pathId === undefined ? undefined : uploads.get(pathId);
    if (upload === undefined) return undefined;
    const sameAsUrl = text === null || text === href;
    const title = sameAsUrl ? "" : ` title="${escapeHtml(text ?? "")}"`;
    return {
      html: `<div class="message_inline_image"><a href="${escapeHtml(href)}"${title}>${uploadImageTag(upload)}</a></div>`,
      removable: sameAsUrl,
      ...(upload.thumbnailUrl === undefined ? { pendingPathId: pathId } : {}),
    };
  }
  const lower = path.toLowerCase();
  if (!IMAGE_EXTENSIONS.some((ext) => lower.endsWith(ext))) return undefined;

  let link = href;
  let linkText = text;
  const corrected = correctedImageSource(href, host, path);
  if (corrected !== undefined) {
    link = corrected;
    linkText = corrected;
  }
  const sameAsUrl = linkText === null || linkText === link;
  const actual = actualImageUrl(link, host, path);
  const external = /^https?:\/\//i.test(actual) && !(realmUrl && actual.startsWith(`${realmUrl}/`));
  const src = proxy && external ? proxy(actual) : actual;
  const title = sameAsUrl ? "" : ` title="${escapeHtml(linkText ?? "")}"`;
  return {
    html: `<div class="message_inline_image"><a href="${escapeHtml(link)}"${title}><img src="${escapeHtml(src)}"></a></div>`,
    removable: sameAsUrl,
  };
}

/** Zulip's `a.text`: the plain text before the label's first element, or null when there is none. */
export function leadingText(labelHtml: string): string | null {
  const leading = labelHtml.split("<", 1)[0];
  if (leading === "") return null;
  return leading.replace(/&(amp|lt|gt|quot);/g, (_m, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"' })[name] ?? "");
}

/** A preview whose `<img>` is a placeholder, as {@link inlineImagePreview} writes it. */
const PLACEHOLDER_PREVIEW = new RegExp(
  '<div class="message_inline_image"><a href="([^"]*)"(?: title="[^"]*")?>' +
    '<img class="image-loading-placeholder" data-original-dimensions="\\d+x\\d+" src="' +
    THUMBNAIL_PLACEHOLDER_SRC.replace(/[.]/g, "\\.") +
    '"></a></div>',
  "g",
);

/**
 * Rewrites a rendered message once an upload's thumbnail exists (Zulip's
 * `rewrite_thumbnailed_images`): each placeholder preview of that upload
 * gets the thumbnail's `<img>`, or, with `preview` null (the file did not
 * decode after all), the preview is removed. Safe on stored renderings:
 * message text is always escaped, so only the renderer writes this markup.
 * @param pathId the upload's path ID (`<realm>/<…>/<name>`)
 * @returns the new HTML, or undefined when no placeholder of the upload is in it
 */
export function replaceUploadPlaceholders(html: string, pathId: string, preview: UploadPreview | null): string | undefined {
  let changed = false;
  const next = html.replace(PLACEHOLDER_PREVIEW, (whole, href: string) => {
    const unescaped = href.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name] ?? "");
    if (uploadPathId(unescaped) !== pathId) return whole;
    changed = true;
    if (preview === null) return "";
    return whole.replace(/<img [^>]*>/, uploadImageTag(preview));
  });
  // A removed preview leaves the line break before it at the end (Zulip strips the result too).
  return changed ? next.trim() : undefined;
}
