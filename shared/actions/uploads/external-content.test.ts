import { describe, expect, it } from "vitest";
import { camoDigest, camoPath, verifyCamoPath } from "../../camo.js";
import { JsonableError } from "../../errors.js";
import { isPublicAddress } from "../../net/public-address.js";
import { fetchExternalImage, MAX_IMAGE_BYTES, sniffImageType, type ExternalFetchIo, type UpstreamResponse } from "./external-content.js";

const KEY = "a-camo-key-for-tests-only";
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);

function pathParts(url: string): [string, string] {
  const [, , digest, hex] = camoPath(KEY, url).split("/");
  return [digest!, hex!];
}

function reply(status: number, headers: Record<string, string>, body: Buffer = Buffer.alloc(0)): UpstreamResponse {
  return { status, headers, body: [body] };
}

/** A fake network: DNS answers from `dns`, each request answered by `serve`; records where it connected. */
function network(dns: Record<string, string[]>, serve: (url: URL) => UpstreamResponse) {
  const connections: string[] = [];
  const io: ExternalFetchIo = {
    resolve: async (host) => {
      const found = dns[host];
      if (!found) throw new Error("ENOTFOUND");
      return found;
    },
    request: async (url, address) => {
      connections.push(`${url.href} via ${address}`);
      return serve(url);
    },
  };
  return { io, connections };
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof JsonableError) return error.httpStatus;
    throw error;
  }
}

describe("camo paths", () => {
  it("signs the URL with HMAC-SHA1 and hex-encodes it", () => {
    const url = "https://images.example/cat.png";
    expect(camoPath(KEY, url)).toBe(`/external_content/${camoDigest(KEY, url)}/${Buffer.from(url).toString("hex")}`);
    expect(camoDigest(KEY, url)).toMatch(/^[0-9a-f]{40}$/);
    expect(verifyCamoPath(KEY, ...pathParts(url))).toEqual({ url });
  });

  it("refuses a digest of another key or URL, and a part that is not hex", () => {
    const [digest, hex] = pathParts("https://images.example/cat.png");
    expect(verifyCamoPath("another-key-entirely", digest, hex)).toEqual({ error: "digest" });
    expect(verifyCamoPath(KEY, digest, Buffer.from("https://images.example/dog.png").toString("hex"))).toEqual({ error: "digest" });
    expect(verifyCamoPath(KEY, digest, "zz")).toEqual({ error: "malformed" });
  });
});

describe("isPublicAddress", () => {
  it.each(["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "2002:7f00:1::"])(
    "refuses %s",
    (address) => expect(isPublicAddress(address)).toBe(false),
  );
  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("fetchExternalImage", () => {
  const image = () => reply(200, { "content-type": "image/png" }, PNG);

  it("fetches a signed image from a public host, connecting to the address it checked", async () => {
    const { io, connections } = network({ "images.example": ["93.184.216.34"] }, image);
    const result = await fetchExternalImage(KEY, ...pathParts("https://images.example/cat.png"), io);
    expect(result).toEqual({ contentType: "image/png", body: PNG });
    expect(connections).toEqual(["https://images.example/cat.png via 93.184.216.34"]);
  });

  it("answers 403 for a bad digest and 404 when the proxy has no key, without fetching", async () => {
    const { io, connections } = network({ "images.example": ["93.184.216.34"] }, image);
    const [, hex] = pathParts("https://images.example/cat.png");
    expect(await status(fetchExternalImage(KEY, "0".repeat(40), hex, io))).toBe(403);
    expect(await status(fetchExternalImage(undefined, ...pathParts("https://images.example/cat.png"), io))).toBe(404);
    expect(connections).toEqual([]);
  });

  it.each([
    "http://127.0.0.1/x.png",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/x.png",
    "http://[::1]/x.png",
    "http://loopback.example/x.png",
    "http://metadata.example/x.png",
    "http://mixed.example/x.png",
    "ftp://images.example/x.png",
  ])("refuses %s (404) without connecting", async (url) => {
    const dns = {
      "loopback.example": ["127.0.0.1"],
      "metadata.example": ["169.254.169.254"],
      "mixed.example": ["93.184.216.34", "10.0.0.1"],
    };
    const { io, connections } = network(dns, image);
    expect(await status(fetchExternalImage(KEY, ...pathParts(url), io))).toBe(404);
    expect(connections).toEqual([]);
  });

  it("checks every redirect's host and follows at most three", async () => {
    const dns = { "images.example": ["93.184.216.34"], "inside.example": ["192.168.0.10"] };
    const toInside = network(dns, (url) => (url.hostname === "images.example" ? reply(302, { location: "http://inside.example/x.png" }) : image()));
    expect(await status(fetchExternalImage(KEY, ...pathParts("https://images.example/a.png"), toInside.io))).toBe(404);
    expect(toInside.connections).toEqual(["https://images.example/a.png via 93.184.216.34"]);

    const loop = network(dns, (url) => reply(302, { location: `/${Number(url.pathname.slice(1)) + 1}` }));
    expect(await status(fetchExternalImage(KEY, ...pathParts("https://images.example/0"), loop.io))).toBe(404);
    expect(loop.connections).toHaveLength(4);

    const once = network(dns, (url) => (url.pathname === "/old.png" ? reply(301, { location: "/new.png" }) : image()));
    expect((await fetchExternalImage(KEY, ...pathParts("https://images.example/old.png"), once.io)).contentType).toBe("image/png");
  });

  it("refuses what is not a raster image, by content type and by bytes (400)", async () => {
    const dns = { "images.example": ["93.184.216.34"] };
    const html = network(dns, () => reply(200, { "content-type": "text/html" }, Buffer.from("<script>")));
    expect(await status(fetchExternalImage(KEY, ...pathParts("https://images.example/a.png"), html.io))).toBe(400);
    const svg = network(dns, () => reply(200, { "content-type": "image/svg+xml" }, Buffer.from("<svg onload=x>")));
    expect(await status(fetchExternalImage(KEY, ...pathParts("https://images.example/a.svg"), svg.io))).toBe(400);
    const lying = network(dns, () => reply(200, { "content-type": "image/png" }, Buffer.from("<html>not an image</html>")));
    expect(await status(fetchExternalImage(KEY, ...pathParts("https://images.example/a.png"), lying.io))).toBe(400);
  });

  it("refuses an image over the size limit (404) and an upstream error (404)", async () => {
    const dns = { "images.example": ["93.184.216.34"] };
    const big = network(dns, () => reply(200, { "content-type": "image/png" }, Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)])));
    expect(await status(fetchExternalImage(KEY, ...pathParts("https://images.example/big.png"), big.io))).toBe(404);
    const missing = network(dns, () => reply(404, { "content-type": "text/plain" }));
    expect(await status(fetchExternalImage(KEY, ...pathParts("https://images.example/gone.png"), missing.io))).toBe(404);
  });

  it("knows image types by their first bytes", () => {
    expect(sniffImageType(PNG)).toBe("image/png");
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("GIF89a...."))).toBe("image/gif");
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(Buffer.from("<svg></svg>"))).toBeUndefined();
  });
});
