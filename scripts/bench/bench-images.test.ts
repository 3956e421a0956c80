import { describe, expect, it } from "vitest";
import { inspectImage } from "../../shared/images/image.js";
import { crc32, encodePng, patternPng, photoJpeg, photoPixels, screenshotPng } from "./bench-images.js";

describe("bench images", () => {
  it("computes PNG's CRC-32", () => {
    expect(crc32(new TextEncoder().encode("IEND"))).toBe(0xae426082);
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  });

  it("encodes RGB pixels as a PNG that decodes to the same size", async () => {
    const png = encodePng(3, 2, new Uint8Array(18).fill(200));
    expect(await inspectImage(png)).toMatchObject({ format: "png", width: 3, height: 2, frames: 1 });
    expect(() => encodePng(3, 2, new Uint8Array(17))).toThrow("expected 18 bytes of RGB, got 17");
    expect(await inspectImage(patternPng(64, 48))).toMatchObject({ format: "png", width: 64, height: 48 });
    expect(await inspectImage(screenshotPng(300, 200))).toMatchObject({ format: "png", width: 300, height: 200 });
  });

  it("makes the same photo-like pixels every time, and a JPEG of them", async () => {
    expect(photoPixels(20, 10)).toEqual(photoPixels(20, 10));
    const jpeg = await photoJpeg(400, 300);
    expect(await inspectImage(jpeg)).toMatchObject({ format: "jpeg", width: 400, height: 300 });
  });
});
