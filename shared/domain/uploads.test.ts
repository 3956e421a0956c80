import { describe, expect, it } from "vitest";
import { sanitizeUploadName, uploadContentDisposition, uploadContentType } from "./uploads.js";

describe("sanitizeUploadName", () => {
  it("keeps letters, digits, _ . - and turns whitespace and dash runs into one dash", () => {
    expect(sanitizeUploadName("my résumé (final).pdf")).toBe("my-résumé-final.pdf");
    expect(sanitizeUploadName("  a -- b\tc.txt ")).toBe("a-b-c.txt");
    expect(sanitizeUploadName("../../etc/passwd")).toBe("....etcpasswd");
    expect(sanitizeUploadName("ｆｕｌｌｗｉｄｔｈ.txt")).toBe("fullwidth.txt");
  });

  it("names an empty result uploaded-file", () => {
    for (const name of ["", "???", ".", "..", "/"]) expect(sanitizeUploadName(name)).toBe("uploaded-file");
  });
});

describe("uploadContentType and uploadContentDisposition", () => {
  it("keeps the client's type, else guesses from the extension, else octet-stream", () => {
    expect(uploadContentType("image/png", "x.txt")).toBe("image/png");
    expect(uploadContentType("", "photo.JPG")).toBe("image/jpeg");
    expect(uploadContentType("", "blob")).toBe("application/octet-stream");
  });

  it("shows inline types in place and downloads the rest, quoting names", () => {
    expect(uploadContentDisposition("a.png", "image/png")).toBe('inline; filename="a.png"');
    expect(uploadContentDisposition("a.png", "image/png", true)).toBe('attachment; filename="a.png"');
    expect(uploadContentDisposition('x"y.svg', "image/svg+xml")).toBe('attachment; filename="x\\"y.svg"');
    expect(uploadContentDisposition("é.txt", "text/plain; charset=utf-8")).toBe("inline; filename*=utf-8''%C3%A9.txt");
  });
});
