/**
 * The images the files part uploads, made without touching sharp outside
 * `shared/images/` (the layer rule): pixels computed here, written as an
 * uncompressed-filter PNG by {@link encodePng} (node:zlib), and re-encoded
 * to JPEG by the images module's own `resizeImage`.
 */
import { deflateSync } from "node:zlib";
import { resizeImage } from "../../shared/images/image.js";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO 3309, as PNG chunks use it) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * An 8-bit RGB PNG of the pixels (no row filter, zlib at `level`).
 * @param rgb `width × height × 3` bytes, row by row
 * @throws Error when `rgb` has another length
 */
export function encodePng(width: number, height: number, rgb: Uint8Array, level = 6): Uint8Array {
  if (rgb.length !== width * height * 3) throw new Error(`expected ${width * height * 3} bytes of RGB, got ${rgb.length}`);
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) rows.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (1 + width * 3) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(rows, { level })),
      chunk("IEND", new Uint8Array()),
    ]),
  );
}

/** Photo-like pixels: colour gradients, a soft sine pattern and sensor-like noise (fixed seed: every run the same). */
export function photoPixels(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  let seed = 12345;
  const noise = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return (seed / 0x7fffffff - 0.5) * 24;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const n = noise();
      // A Uint8Array wraps out-of-range values: clamp them.
      rgb[i] = Math.max(0, Math.min(255, (x / width) * 255 + n));
      rgb[i + 1] = Math.max(0, Math.min(255, (y / height) * 255 + n));
      rgb[i + 2] = Math.max(0, Math.min(255, 128 + 60 * Math.sin(x / 150) * Math.cos(y / 120) + n));
    }
  }
  return rgb;
}

/** A photo-like JPEG (sharp's default quality, 80) of the given size: 4000×3000 is about 2 MB. */
export async function photoJpeg(width: number, height: number): Promise<Uint8Array> {
  const png = encodePng(width, height, photoPixels(width, height), 1);
  return resizeImage(png, { width, height, fit: "inside", format: "jpeg" });
}

/** A screenshot-sized PNG (gradients and a pattern, so it does not compress to nothing). */
export function patternPng(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    rgb[i * 3] = (i % width) % 256;
    rgb[i * 3 + 1] = Math.floor(i / width) % 256;
    rgb[i * 3 + 2] = (i * 7) % 256;
  }
  return encodePng(width, height, rgb);
}

/**
 * A large screenshot-like PNG: flat colour blocks crossed by rows of
 * "text" strokes. It compresses well (5000×4000 is about 0.5 MB), so it
 * passes the upload limit while its decoder still walks every pixel.
 */
export function screenshotPng(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const stroke = y % 24 < 14 && x % 9 < 6 && (x >> 7) % 3 !== 0;
      rgb[i] = stroke ? 30 : ((x >> 8) * 37) % 256;
      rgb[i + 1] = stroke ? 30 : ((y >> 8) * 53) % 256;
      rgb[i + 2] = stroke ? 30 : 200;
    }
  }
  return encodePng(width, height, rgb);
}
