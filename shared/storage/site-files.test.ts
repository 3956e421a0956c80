import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { makeWebDist, TEST_WEB_FILES } from "../../test/support/web-dist.js";
import { precompressSiteFiles, safeSitePath, siteContentType, siteFilesFromDirectory } from "./site-files.js";

const JS = "assets/index-Dk3fA9xQ.js";
const dirs: string[] = [];
const dist = () => {
  const dir = makeWebDist();
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("safeSitePath", () => {
  it.each([
    ["index.html", "index.html"],
    [JS, JS],
    ["assets/fonts/Source-Sans-3.woff2", "assets/fonts/Source-Sans-3.woff2"],
  ])("keeps %s", (given, kept) => {
    expect(safeSitePath(given)).toBe(kept);
  });

  it.each(["", "..", "../package.json", "assets/../../x", "./index.html", "assets//x.js", "assets/", "/etc/passwd",
    "..\\package.json", "a\0b", ".vite/manifest.json", "assets/.hidden", `${JS}.br`, `${JS}.gz`, "a".repeat(513)])(
    "refuses %j",
    (given) => {
      expect(safeSitePath(given)).toBeUndefined();
    },
  );
});

describe("siteContentType", () => {
  it("names the types Vite emits and falls back to octet-stream", () => {
    expect(siteContentType("a.JS")).toBe("text/javascript; charset=utf-8");
    expect(siteContentType("a.css")).toBe("text/css; charset=utf-8");
    expect(siteContentType("a.woff2")).toBe("font/woff2");
    expect(siteContentType("a.svg")).toBe("image/svg+xml");
    expect(siteContentType("LICENSE")).toBe("application/octet-stream");
  });
});

describe("siteFilesFromDirectory", () => {
  it("reads a file with its compressed forms, made at the first read", async () => {
    const files = siteFilesFromDirectory(dist());
    const file = (await files.read(JS))!;
    expect(file.path).toBe(JS);
    expect(file.bytes.toString("utf8")).toBe(TEST_WEB_FILES[JS]);
    expect(brotliDecompressSync(file.encoded.br!).equals(file.bytes)).toBe(true);
    expect(gunzipSync(file.encoded.gzip!).equals(file.bytes)).toBe(true);
    expect(file.encoded.br!.length).toBeLessThan(file.bytes.length);
    expect(file.hash).toMatch(/^[0-9a-f]{20}$/);
    // Images are stored as they are.
    expect((await files.read("favicon.png"))!.encoded).toEqual({});
  });

  it("keeps a file in memory after its first read, and forgets misses", async () => {
    const dir = dist();
    const files = siteFilesFromDirectory(dir);
    const first = await files.read("index.html");
    writeFileSync(path.join(dir, "index.html"), "changed");
    expect((await files.read("index.html"))!.bytes).toBe(first!.bytes);
    expect(await files.read("late.txt")).toBeUndefined();
    writeFileSync(path.join(dir, "late.txt"), "now here");
    expect((await files.read("late.txt"))!.bytes.toString()).toBe("now here");
  });

  it("finds nothing for directories, traversal, a missing root", async () => {
    const dir = dist();
    const files = siteFilesFromDirectory(path.join(dir, "assets"));
    expect(await files.read("../index.html")).toBeUndefined();
    expect(await siteFilesFromDirectory(dir).read("assets")).toBeUndefined();
    expect(await siteFilesFromDirectory(path.join(dir, "nowhere")).read("index.html")).toBeUndefined();
  });
});

describe("precompressSiteFiles", () => {
  it("writes .br and .gz beside compressible files, which the reader then serves as stored", async () => {
    const dir = dist();
    expect(precompressSiteFiles(dir)).toBe(6); // index.html, the script, the stylesheet: two forms each
    expect(existsSync(path.join(dir, "favicon.png.br"))).toBe(false);
    const stored = readFileSync(path.join(dir, `${JS}.br`));
    expect(brotliDecompressSync(stored).toString("utf8")).toBe(TEST_WEB_FILES[JS]);
    // The reader takes the stored form (here replaced by a marker, to see which one it serves).
    writeFileSync(path.join(dir, `${JS}.gz`), "stored gzip form");
    const file = (await siteFilesFromDirectory(dir).read(JS))!;
    expect(file.encoded.gzip!.toString()).toBe("stored gzip form");
    expect(file.encoded.br!.equals(stored)).toBe(true);
    // The stored forms are not files of the site.
    expect(await siteFilesFromDirectory(dir).read(`${JS}.br`)).toBeUndefined();
  });

  it("leaves a folder without compressible files unchanged", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "zs-site-"));
    dirs.push(dir);
    writeFileSync(path.join(dir, "a.png"), Buffer.alloc(10));
    expect(precompressSiteFiles(dir)).toBe(0);
  });
});
