import { createRequire } from "node:module";
import type sharpModule from "sharp";

let loaded: typeof sharpModule | undefined;

/**
 * sharp, loaded with `require` rather than `import`: on AWS it is not in
 * the bundle (esbuild cannot bundle its native libvips) but in a Lambda
 * layer under `/opt/nodejs/node_modules`, which Node finds through
 * `NODE_PATH` for `require` only (ES module resolution ignores it).
 * Locally it resolves from `node_modules` as usual. Loaded on first use, so
 * a function whose request decodes no image never pays for libvips.
 */
function sharp(...args: Parameters<typeof sharpModule>): ReturnType<typeof sharpModule> {
  loaded ??= createRequire(import.meta.url)("sharp") as typeof sharpModule;
  return loaded(...args);
}

/** Formats the service decodes; anything else is not treated as an image. */
export type ImageFormat = "png" | "jpeg" | "gif" | "webp" | "avif" | "tiff";

const DECODED_FORMATS: ReadonlySet<string> = new Set<ImageFormat>(["png", "jpeg", "gif", "webp", "avif", "tiff"]);

/** What {@link inspectImage} reads from an image's own bytes (never from its file name). */
export interface ImageInfo {
  format: ImageFormat;
  /** Pixels (of one frame for animations). */
  width: number;
  height: number;
  /** Frames: 1 for a still image. */
  frames: number;
}

/**
 * Largest image, in pixels (width × height of one frame), that is decoded at
 * all: a bound on the memory and CPU one request can spend (a small file can
 * claim a huge canvas).
 */
export const MAX_DECODED_PIXELS = 40_000_000;

/**
 * Decodes an image's header with sharp (libvips) to learn what it really is.
 * @param bytes the file's bytes
 * @returns its format and size, or `undefined` when the bytes are not an image
 *   of a {@link ImageFormat} (or claim more than {@link MAX_DECODED_PIXELS})
 */
export async function inspectImage(bytes: Uint8Array): Promise<ImageInfo | undefined> {
  const info = await readImageHeader(bytes);
  return info && info.width * info.height <= MAX_DECODED_PIXELS ? info : undefined;
}

/**
 * {@link inspectImage} without the bound on pixels: only the header is
 * read, so a caller can tell a too-large image from one that is not an image.
 * @returns its format and size, or `undefined` when the bytes are not an image of a {@link ImageFormat}
 */
export async function readImageHeader(bytes: Uint8Array): Promise<ImageInfo | undefined> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!meta.format || !DECODED_FORMATS.has(meta.format) || !meta.width || !meta.height) return undefined;
    const frames = meta.pages ?? 1;
    const height = meta.pageHeight ?? meta.height;
    // EXIF orientations 5–8 turn the image a quarter: shown, it is as wide as it is stored high.
    const turned = meta.orientation !== undefined && meta.orientation >= 5 && meta.orientation <= 8;
    return {
      format: meta.format as ImageFormat,
      width: turned ? height : meta.width,
      height: turned ? meta.width : height,
      frames,
    };
  } catch {
    return undefined;
  }
}

/** How {@link resizeImage} fits an image into its box. */
export interface ResizeOptions {
  /** Box in pixels. */
  width: number;
  height: number;
  /**
   * `cover`: crop to fill the box exactly (avatars, still emoji); `inside`: keep the whole image within it
   * (thumbnails, logos); `contain`: the whole image within the box, padded to it with transparency (animated emoji).
   */
  fit: "cover" | "inside" | "contain";
  /** Output format. */
  format: "png" | "webp" | "jpeg" | "gif";
  /** Keep every frame of an animation (emoji); otherwise the first frame only. */
  animated?: boolean;
  /** Never enlarge a smaller image (thumbnails). @default false */
  withoutEnlargement?: boolean;
  /** With `animated`: decode at most this many frames (a bound on the work of a long animation). */
  maxFrames?: number;
}

/** What {@link resizeImage} made. */
export interface ResizedImage {
  bytes: Uint8Array;
  /** Pixels of the result (of one frame when animated). */
  width: number;
  height: number;
}

/**
 * Resizes and re-encodes an image with sharp; EXIF orientation is applied
 * and metadata (EXIF, GPS) dropped, as Zulip's thumbnailing does.
 * @returns the encoded bytes
 * @throws Error when the bytes are not a decodable image (call {@link inspectImage} first)
 */
export async function resizeImage(bytes: Uint8Array, options: ResizeOptions): Promise<Uint8Array> {
  return (await resizeImageWithSize(bytes, options)).bytes;
}

/**
 * {@link resizeImage}, also reporting the result's size in pixels (what a
 * thumbnail's metadata records).
 * @throws Error when the bytes are not a decodable image
 */
export async function resizeImageWithSize(bytes: Uint8Array, options: ResizeOptions): Promise<ResizedImage> {
  const animated = options.animated ?? false;
  const pages = animated && options.maxFrames !== undefined ? options.maxFrames : undefined;
  const pipeline = sharp(bytes, { animated, ...(pages !== undefined ? { pages } : {}), limitInputPixels: MAX_DECODED_PIXELS })
    .rotate()
    .resize({
      width: options.width,
      height: options.height,
      fit: options.fit,
      ...(options.fit === "contain" ? { background: { r: 0, g: 0, b: 0, alpha: 0 } } : {}),
      withoutEnlargement: options.withoutEnlargement ?? false,
    })
    .toFormat(options.format);
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { bytes: new Uint8Array(data), width: info.width, height: info.pageHeight ?? info.height };
}
