/**
 * Thumbnails of uploaded images as Zulip serves them from feature level 273
 * on (https://zulip.com/api/message-formatting#image-previews; Zulip's
 * `zerver/lib/thumbnail.py`): which formats exist, their names and paths,
 * which one a message shows, and the `server_thumbnail_formats` clients
 * read from `POST /register`.
 */
import type { AttachmentRecord, ImageAttachmentInfo } from "../data/records/attachment.js";
import type { UploadPreview } from "../markdown/types.js";

/** One thumbnail format (Zulip's `ThumbnailFormat`). */
export interface ThumbnailFormat {
  /** Box the thumbnail fits inside, in pixels; smaller images are not enlarged. */
  maxWidth: number;
  maxHeight: number;
  /** Keeps the animation (only made for animated originals). */
  animated: boolean;
  /** File extension and encoding, e.g. `webp`. */
  extension: string;
}

/**
 * The formats made for every uploaded image (Zulip's
 * `THUMBNAIL_OUTPUT_FORMATS`): the first of each kind (animated or still)
 * is the one messages show. 840×560 is large enough that clients which do
 * not rewrite thumbnail URLs show no pixelated image.
 */
export const THUMBNAIL_OUTPUT_FORMATS: readonly ThumbnailFormat[] = [
  { maxWidth: 840, maxHeight: 560, animated: true, extension: "webp" },
  { maxWidth: 840, maxHeight: 560, animated: false, extension: "webp" },
];

/**
 * Content types of uploads that are decoded for thumbnails (Zulip's
 * `THUMBNAIL_ACCEPT_IMAGE_TYPES` without HEIC, which sharp's prebuilt libvips
 * cannot decode, and SVG, which `shared/images/` never decodes: rendering
 * untrusted vector files is a larger attack surface than raster decoding).
 * The type only selects candidates: the bytes decide (a file claiming to be
 * an image that is not gets no thumbnail).
 */
export const THUMBNAIL_ACCEPT_IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/avif",
  "image/gif",
  "image/jpeg",
  "image/png",
  "image/tiff",
  "image/webp",
]);

/** A format's name, the last component of its URL: `840x560.webp`, `840x560-anim.webp`. */
export function thumbnailFormatName(format: ThumbnailFormat): string {
  return `${format.maxWidth}x${format.maxHeight}${format.animated ? "-anim" : ""}.${format.extension}`;
}

/** Reads a format name (Zulip's `BaseThumbnailFormat.from_string`); undefined when it is not one. */
export function parseThumbnailFormatName(name: string): ThumbnailFormat | undefined {
  const match = /^(\d{1,5})x(\d{1,5})(-anim)?\.(\w{1,10})$/.exec(name);
  if (!match) return undefined;
  return { maxWidth: Number(match[1]), maxHeight: Number(match[2]), animated: match[3] !== undefined, extension: match[4]! };
}

/** The formats an image gets: animated ones only for an animated original (Zulip's `missing_thumbnails`). */
export function thumbnailFormatsFor(image: Pick<ImageAttachmentInfo, "frames">): ThumbnailFormat[] {
  return THUMBNAIL_OUTPUT_FORMATS.filter((format) => image.frames > 1 || !format.animated);
}

/** The formats of {@link thumbnailFormatsFor} not stored yet. */
export function missingThumbnailFormats(image: ImageAttachmentInfo): ThumbnailFormat[] {
  const stored = new Set(image.thumbnails.map((t) => t.name));
  return thumbnailFormatsFor(image).filter((format) => !stored.has(thumbnailFormatName(format)));
}

/**
 * The format messages show (Zulip's `get_default_thumbnail_url`): the
 * first output format whose animation matches the original's.
 */
export function defaultThumbnailFormat(image: Pick<ImageAttachmentInfo, "frames">): ThumbnailFormat {
  const animated = image.frames > 1;
  return THUMBNAIL_OUTPUT_FORMATS.find((format) => format.animated === animated) ?? THUMBNAIL_OUTPUT_FORMATS[0]!;
}

/**
 * The format served for a requested name: the name itself when it is one
 * this image has or gets; otherwise the closest of those by pixel area,
 * preferring a matching animation (Zulip serves the closest format rather
 * than failing, so clients may ask for sizes of other servers).
 */
export function servedThumbnailFormat(image: ImageAttachmentInfo, requested: ThumbnailFormat): ThumbnailFormat {
  const candidates = thumbnailFormatsFor(image);
  const name = thumbnailFormatName(requested);
  const exact = candidates.find((format) => thumbnailFormatName(format) === name);
  if (exact) return exact;
  const area = requested.maxWidth * requested.maxHeight;
  const score = (format: ThumbnailFormat) =>
    (format.animated === requested.animated ? 0 : 1e12) + Math.abs(format.maxWidth * format.maxHeight - area);
  return [...candidates].sort((a, b) => score(a) - score(b))[0]!;
}

/** A thumbnail's URL path: `/user_uploads/thumbnail/<path_id>/<format name>` (Zulip's `get_image_thumbnail_path`). */
export function thumbnailUrl(pathId: string, format: ThumbnailFormat): string {
  return `/user_uploads/thumbnail/${pathId}/${thumbnailFormatName(format)}`;
}

/** The MIME type of a format's files. */
export function thumbnailContentType(format: ThumbnailFormat): string {
  return `image/${format.extension}`;
}

/** One entry of `server_thumbnail_formats` (https://zulip.com/api/register-queue). */
export interface ServerThumbnailFormat {
  name: string;
  max_width: number;
  max_height: number;
  format: string;
  animated: boolean;
}

/** `server_thumbnail_formats` of `POST /register`: every format the server makes. */
export function serverThumbnailFormats(): ServerThumbnailFormat[] {
  return THUMBNAIL_OUTPUT_FORMATS.map((format) => ({
    name: thumbnailFormatName(format),
    max_width: format.maxWidth,
    max_height: format.maxHeight,
    format: format.extension,
    animated: format.animated,
  }));
}

/**
 * How messages preview an uploaded image (Zulip's `get_user_upload_previews`):
 * its dimensions, and its default thumbnail once that is stored (until
 * then, a placeholder).
 * @returns undefined for an upload that is not an image
 */
export function uploadPreviewOf(attachment: Pick<AttachmentRecord, "path_id" | "image">): UploadPreview | undefined {
  const image = attachment.image;
  if (!image) return undefined;
  const format = defaultThumbnailFormat(image);
  const stored = image.thumbnails.some((t) => t.name === thumbnailFormatName(format));
  return {
    width: image.width,
    height: image.height,
    animated: image.frames > 1,
    ...(stored ? { thumbnailUrl: thumbnailUrl(attachment.path_id, format) } : {}),
  };
}
