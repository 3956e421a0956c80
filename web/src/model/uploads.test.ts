import { describe, expect, it } from "vitest";
import {
  finishUpload,
  formatFileSize,
  insertBlock,
  replaceText,
  UPLOADS_DISABLED,
  uploadedLink,
  uploadingPlaceholder,
  uploadRefusal,
  uploadSpaceText,
} from "./uploads.js";

const MIB = 1024 * 1024;

describe("uploadRefusal", () => {
  it("refuses a file over the limit before uploading, in Zulip's words", () => {
    expect(uploadRefusal({ name: "big.bin", size: 4 * MIB + 1 }, 4)).toBe("big.bin exceeds the maximum file size for attachments (4 MB).");
  });
  it("accepts a file of exactly the limit and below", () => {
    expect(uploadRefusal({ name: "a.png", size: 4 * MIB }, 4)).toBeNull();
    expect(uploadRefusal({ name: "a.png", size: 10 }, 4)).toBeNull();
  });
  it("refuses everything when uploads are disabled (limit 0), and checks nothing without a limit", () => {
    expect(uploadRefusal({ name: "a.png", size: 1 }, 0)).toBe(UPLOADS_DISABLED);
    expect(uploadRefusal({ name: "a.png", size: 100 * MIB }, undefined)).toBeNull();
  });
});

describe("placeholders", () => {
  it("writes Zulip's placeholder and link, dropping square brackets from the link text", () => {
    expect(uploadingPlaceholder("cat.png")).toBe("[Uploading cat.png…]()");
    expect(uploadedLink("[draft] cat.png", "/user_uploads/2/ab/x/cat.png")).toBe("[draft cat.png](/user_uploads/2/ab/x/cat.png)");
  });

  it("inserts a placeholder on a line of its own at the caret", () => {
    expect(insertBlock("", 0, 0, "[X]()")).toEqual({ text: "[X]()\n", caret: 6 });
    expect(insertBlock("look", 4, 4, "[X]()")).toEqual({ text: "look\n[X]()\n", caret: 11 });
    expect(insertBlock("look\nhere", 5, 5, "[X]()")).toEqual({ text: "look\n[X]()\nhere", caret: 11 });
    // A selection is replaced.
    expect(insertBlock("a SEL b", 2, 5, "[X]()").text).toBe("a \n[X]()\n b");
  });

  it("replaces the placeholder with the link when the upload is stored", () => {
    const text = `see\n${uploadingPlaceholder("cat.png")}\nbye`;
    expect(finishUpload(text, "cat.png", "/user_uploads/2/ab/x/cat.png")).toBe("see\n[cat.png](/user_uploads/2/ab/x/cat.png)\nbye");
  });

  it("replaces only the first of two placeholders of files with the same name", () => {
    const p = uploadingPlaceholder("a.png");
    expect(finishUpload(`${p}\n${p}\n`, "a.png", "/u/1")).toBe(`[a.png](/u/1)\n${p}\n`);
  });

  it("adds the link at the end when the placeholder was deleted by hand", () => {
    expect(finishUpload("typed over", "a.png", "/u/1")).toBe("typed over\n[a.png](/u/1)\n");
  });

  it("removes a failed or cancelled upload's placeholder with its line break", () => {
    const p = uploadingPlaceholder("a.png");
    expect(replaceText(`hi\n${p}\nthere`, p, "")).toEqual({ text: "hi\nthere", replaced: true });
    expect(replaceText("hi", p, "")).toEqual({ text: "hi", replaced: false });
  });
});

describe("sizes", () => {
  it("formats bytes as Zulip does (powers of 1000, one decimal under ten)", () => {
    expect(formatFileSize(0)).toBe("0 B");
    expect(formatFileSize(950)).toBe("950 B");
    expect(formatFileSize(1500)).toBe("1.5 KB");
    expect(formatFileSize(12_345)).toBe("12 KB");
    expect(formatFileSize(3_210_000)).toBe("3.2 MB");
  });
  it("states the organization's upload space against its quota", () => {
    expect(uploadSpaceText(512 * MIB, 1024)).toBe("Organization using 50% of 1.1 GB.");
    expect(uploadSpaceText(2000, null)).toBe("Organization using 2 KB of upload space.");
  });
});
