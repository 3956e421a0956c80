import { describe, expect, it } from "vitest";
import type { ImageAttachmentInfo } from "../data/records/attachment.js";
import {
  defaultThumbnailFormat,
  missingThumbnailFormats,
  parseThumbnailFormatName,
  servedThumbnailFormat,
  thumbnailFormatName,
  uploadPreviewOf,
} from "./thumbnails.js";

const still: ImageAttachmentInfo = { width: 1200, height: 900, frames: 1, thumbnails: [] };
const animated: ImageAttachmentInfo = { width: 100, height: 80, frames: 3, thumbnails: [] };

describe("thumbnail formats", () => {
  it("names and parses formats as Zulip's URLs spell them", () => {
    expect(parseThumbnailFormatName("840x560-anim.webp")).toEqual({ maxWidth: 840, maxHeight: 560, animated: true, extension: "webp" });
    expect(thumbnailFormatName(parseThumbnailFormatName("300x200.jpg")!)).toBe("300x200.jpg");
    for (const bad of ["840x560", "x560.webp", "840x560-anim", "840x560.webp/x", "../840x560.webp", "99999999x1.webp"]) {
      expect(parseThumbnailFormatName(bad), bad).toBeUndefined();
    }
  });

  it("makes animated formats only for animations, and shows the one matching the original", () => {
    expect(missingThumbnailFormats(still).map(thumbnailFormatName)).toEqual(["840x560.webp"]);
    expect(missingThumbnailFormats(animated).map(thumbnailFormatName)).toEqual(["840x560-anim.webp", "840x560.webp"]);
    expect(missingThumbnailFormats({ ...animated, thumbnails: [{ name: "840x560.webp", width: 1, height: 1, byte_size: 1 }] }).map(thumbnailFormatName)).toEqual([
      "840x560-anim.webp",
    ]);
    expect(thumbnailFormatName(defaultThumbnailFormat(still))).toBe("840x560.webp");
    expect(thumbnailFormatName(defaultThumbnailFormat(animated))).toBe("840x560-anim.webp");
  });

  it("serves the requested format when the image has it, else the closest, preferring the same animation", () => {
    const serve = (image: ImageAttachmentInfo, name: string) => thumbnailFormatName(servedThumbnailFormat(image, parseThumbnailFormatName(name)!));
    expect(serve(animated, "840x560-anim.webp")).toBe("840x560-anim.webp");
    expect(serve(animated, "840x560.webp")).toBe("840x560.webp");
    expect(serve(animated, "100x100-anim.webp")).toBe("840x560-anim.webp");
    expect(serve(still, "840x560-anim.webp")).toBe("840x560.webp");
    expect(serve(still, "4032x3024.webp")).toBe("840x560.webp");
  });

  it("previews an image with its dimensions, and its thumbnail once stored", () => {
    expect(uploadPreviewOf({ path_id: "1/ab/c/x.png" })).toBeUndefined();
    expect(uploadPreviewOf({ path_id: "1/ab/c/x.png", image: still })).toEqual({ width: 1200, height: 900, animated: false });
    const done = { ...animated, thumbnails: [{ name: "840x560-anim.webp", width: 100, height: 80, byte_size: 9 }] };
    expect(uploadPreviewOf({ path_id: "1/ab/c/y.gif", image: done })).toEqual({
      width: 100,
      height: 80,
      animated: true,
      thumbnailUrl: "/user_uploads/thumbnail/1/ab/c/y.gif/840x560-anim.webp",
    });
  });
});
