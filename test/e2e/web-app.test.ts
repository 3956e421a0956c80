import { request } from "node:http";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { WEB_APP_CSP, webAppCsp } from "../../functions/web/web-app.js";
import { useTestOrg } from "../support/local-stack.js";
import { makeWebDist, TEST_WEB_FILES } from "../support/web-dist.js";

/**
 * The web app's page and files over HTTP (the `web` group through the
 * local stack's adapter, as API Gateway hands them to its Lambda), served
 * from a stand-in build (test/support/web-dist.ts) so that the test does not
 * depend on `npm run build:web`.
 */
const webDist = makeWebDist();
// A hidden file in the build (Vite's manifest when enabled): never served.
mkdirSync(path.join(webDist, ".vite"));
writeFileSync(path.join(webDist, ".vite", "manifest.json"), "{}");
const org = useTestOrg({ webDist });
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with the path sent exactly as given (no normalization of `..`, no automatic decompression). */
function raw(method: string, pathAsSent: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(org.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: pathAsSent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const JS = "assets/index-Dk3fA9xQ.js";

describe("GET / (the web app's page)", () => {
  it("answers index.html, never cached, with the strict CSP and security headers", async () => {
    const res = await raw("GET", "/");
    expect(res.status).toBe(200);
    expect(res.body.toString("utf8")).toBe(TEST_WEB_FILES["index.html"]);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-cache");
    // The local stack's file store is an S3 emulator on http: its origin is allowed for images (on AWS, `https:` covers S3).
    const fileOrigin = new URL(org.stack.deps.config.S3_ENDPOINT!).origin;
    expect(res.headers["content-security-policy"]).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; " +
        `img-src 'self' data: blob: https: ${fileOrigin}; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; ` +
        "base-uri 'none'; form-action 'self'; object-src 'none'",
    );
    expect(webAppCsp(fileOrigin)).toBe(res.headers["content-security-policy"]);
    expect(WEB_APP_CSP).toBe(webAppCsp());
    expect(WEB_APP_CSP).not.toContain("http:");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["vary"]).toBe("Accept-Encoding");
    expect(res.headers["content-encoding"]).toBeUndefined();
  });

  it("HEAD answers the same headers without a body", async () => {
    const get = await raw("GET", "/");
    const head = await raw("HEAD", "/");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ["content-type", "cache-control", "content-security-policy", "etag", "referrer-policy"]) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it("answers 304 to a reload whose If-None-Match names the page's tag", async () => {
    const first = await raw("GET", "/", { "accept-encoding": "br" });
    expect(first.headers["content-encoding"]).toBe("br");
    const again = await raw("GET", "/", { "accept-encoding": "br", "if-none-match": String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another coding is another representation: its tag differs, so the br tag does not match it.
    const gzip = await raw("GET", "/", { "accept-encoding": "gzip", "if-none-match": String(first.headers.etag) });
    expect(gzip.status).toBe(200);
    expect(gunzipSync(gzip.body).toString("utf8")).toBe(TEST_WEB_FILES["index.html"]);
  });
});

describe("GET /static/app/{path+} (the build's files)", () => {
  it("serves a hashed asset immutable for a year, with its content type", async () => {
    const res = await raw("GET", `/static/app/${JS}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.body.toString("utf8")).toBe(TEST_WEB_FILES[JS]);
    const css = await raw("GET", "/static/app/assets/index-B7cPq2Lm.css");
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
  });

  it("answers brotli or gzip by Accept-Encoding, smaller and equal once decompressed", async () => {
    const plain = Buffer.from(TEST_WEB_FILES[JS]);
    const br = await raw("GET", `/static/app/${JS}`, { "accept-encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["vary"]).toBe("Accept-Encoding");
    expect(br.body.length).toBeLessThan(plain.length);
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);

    const gz = await raw("GET", `/static/app/${JS}`, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);

    const weighted = await raw("GET", `/static/app/${JS}`, { "accept-encoding": "br;q=0.5, gzip;q=1" });
    expect(weighted.headers["content-encoding"]).toBe("gzip");

    const identity = await raw("GET", `/static/app/${JS}`, { "accept-encoding": "identity" });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.equals(plain)).toBe(true);
    expect(identity.headers["vary"]).toBe("Accept-Encoding");
    // Each representation has its own entity tag.
    expect(new Set([br.headers.etag, gz.headers.etag, identity.headers.etag]).size).toBe(3);
  });

  it("serves a file outside assets/ revalidated, and binary bytes unchanged", async () => {
    const res = await raw("GET", "/static/app/favicon.png", { "accept-encoding": "gzip, br" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["cache-control"]).toBe("no-cache");
    // Images are not compressed again.
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.equals(TEST_WEB_FILES["favicon.png"])).toBe(true);
  });

  it("answers an unknown file with Zulip's 404 envelope", async () => {
    const res = await raw("GET", "/static/app/assets/missing-abc123.js");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(res.body.toString("utf8"))).toEqual({ result: "error", msg: "Not Found", code: "BAD_REQUEST" });
    const dir = await raw("GET", "/static/app/assets");
    expect(dir.status).toBe(404);
  });

  it.each([
    "/static/app/../../package.json",
    "/static/app/%2e%2e/%2e%2e/package.json",
    "/static/app/..%2f..%2fpackage.json",
    "/static/app/assets/..%2f..%2f..%2fpackage.json",
    "/static/app/%2E%2E%2F%2E%2E%2Fpackage.json",
    "/static/app/..%5c..%5cpackage.json",
    "/static/app/.%2e/.%2e/package.json",
  ])("refuses the traversal %s (404, nothing of the repository)", async (p) => {
    const res = await raw("GET", p);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString("utf8"))).toMatchObject({ result: "error", msg: "Not Found" });
    const pkg = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    expect(res.body.toString("utf8")).not.toContain(pkg.slice(0, 40));
  });

  it("refuses hidden files", async () => {
    for (const p of ["/static/app/.vite/manifest.json", "/static/app/%2evite/manifest.json"]) {
      expect((await raw("GET", p)).status, p).toBe(404);
    }
  });
});
