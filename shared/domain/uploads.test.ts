import { describe, expect, it } from "vitest";
import { capUploadPathName, multipartFileName, sanitizeUploadName, uploadContentDisposition, uploadContentType } from "./uploads.js";

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

describe("multipartFileName", () => {
  it("keeps the last path segment without non-printable characters", () => {
    expect(multipartFileName("C:\\Users\\me\\a.txt")).toBe("a.txt");
    expect(multipartFileName("dir/sub/b c.txt")).toBe("b c.txt");
    expect(multipartFileName("tab\there\u200b.txt")).toBe("tabhere.txt");
  });

  it("is no file without a usable name", () => {
    for (const name of [undefined, "", ".", "..", "a/..", "\u0007"]) expect(multipartFileName(name)).toBeNull();
  });

  it("cuts a name to 255 characters, keeping its extension as os.path.splitext finds it", () => {
    expect(multipartFileName(`${"a".repeat(300)}.txt`)).toBe(`${"a".repeat(251)}.txt`);
    expect(multipartFileName(`.${"b".repeat(300)}`)).toBe(`.${"b".repeat(254)}`);
    expect(multipartFileName(`${"\u{20000}".repeat(300)}.pdf`)).toBe(`${"\u{20000}".repeat(251)}.pdf`);
    expect(multipartFileName(`x.${"e".repeat(300)}`)).toBe(`.${"e".repeat(254)}`);
  });
});

describe("capUploadPathName", () => {
  it("leaves a short name alone and cuts a long one at a character boundary, extension kept", () => {
    expect(capUploadPathName("short.txt")).toBe("short.txt");
    expect(capUploadPathName(`${"é".repeat(10)}.txt`, 12)).toBe(`${"é".repeat(4)}.txt`);
    expect(Buffer.byteLength(capUploadPathName(`${"\u{20000}".repeat(255)}.txt`), "utf8")).toBe(900);
  });
});
