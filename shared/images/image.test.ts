import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { inspectImage, resizeImageWithSize } from "./image.js";

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#208040" } });

describe("inspectImage", () => {
  it("reads format, displayed size and frames from the bytes", async () => {
    expect(await inspectImage(await solid(40, 30).png().toBuffer())).toEqual({ format: "png", width: 40, height: 30, frames: 1 });
    // EXIF orientation 6 (turned a quarter): shown 30 wide and 40 high.
    const turned = await solid(40, 30).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(await inspectImage(turned)).toEqual({ format: "jpeg", width: 30, height: 40, frames: 1 });
    expect(await inspectImage(new TextEncoder().encode("not an image"))).toBeUndefined();
  });
});

describe("resizeImageWithSize", () => {
  it("fits inside the box without enlarging, reports the result's size, and keeps a frame budget", async () => {
    const big = await resizeImageWithSize(await solid(1200, 900).png().toBuffer(), {
      width: 840,
      height: 560,
      fit: "inside",
      format: "webp",
      withoutEnlargement: true,
    });
    expect([big.width, big.height]).toEqual([747, 560]);
    expect((await sharp(big.bytes).metadata()).format).toBe("webp");
    const small = await resizeImageWithSize(await solid(20, 10).png().toBuffer(), {
      width: 840,
      height: 560,
      fit: "inside",
      format: "webp",
      withoutEnlargement: true,
    });
    expect([small.width, small.height]).toEqual([20, 10]);

    const frames = await Promise.all(["red", "blue", "green"].map((c) => sharp({ create: { width: 8, height: 6, channels: 4, background: c } }).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
    const two = await resizeImageWithSize(gif, { width: 840, height: 560, fit: "inside", format: "webp", animated: true, maxFrames: 2, withoutEnlargement: true });
    expect([two.width, two.height, (await sharp(two.bytes, { animated: true }).metadata()).pages]).toEqual([8, 6, 2]);
  });
});
