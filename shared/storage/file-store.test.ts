import { createHash, createHmac } from "node:crypto";
import { SignatureV4 } from "@smithy/signature-v4";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../config.js";
import { createS3FileStore } from "./file-store.js";

/**
 * The file store's requests and presigned URLs, signed by aws4fetch, against
 * the AWS SDK's own SigV4 signer (`@smithy/signature-v4`) given the same
 * request: what S3 checks. The local S3 emulator takes any signature, so
 * the e2e tests cannot tell a wrong one.
 */

const CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: "token/with+chars=" };
const NOW = new Date("2026-03-01T12:34:56Z");
const KEY = "7/ab/x_y-Z1/report (final) it's*.pdf";

/** The SDK's hash: SHA-256, or HMAC-SHA-256 with a secret. */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key = typeof secret === "string" || secret === undefined ? secret : Buffer.from(secret as Uint8Array);
    this.hash = key === undefined ? createHash("sha256") : createHmac("sha256", key);
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(typeof data === "string" ? data : Buffer.from(data as Uint8Array));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {}
}

const signer = new SignatureV4({ credentials: CREDENTIALS, region: "eu-west-1", service: "s3", sha256: NodeSha256, uriEscapePath: false });

function store() {
  return createS3FileStore(
    loadConfig({
      FILES_BUCKET: "zulip-files-1",
      AWS_REGION: "eu-west-1",
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      AWS_SESSION_TOKEN: CREDENTIALS.sessionToken,
    }),
  );
}

describe("S3 file store signing", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("presigns a GET of the bucket's virtual-hosted URL as the SDK's signer does, with the expiry and response overrides", async () => {
    const disposition = `attachment; filename*=utf-8''r%C3%A9sum%C3%A9.pdf`;
    const url = new URL(await store().presignGet(KEY, 60, { contentDisposition: disposition, contentType: "application/pdf" }));

    expect(url.origin).toBe("https://zulip-files-1.s3.eu-west-1.amazonaws.com");
    expect(url.pathname).toBe("/7/ab/x_y-Z1/report%20%28final%29%20it%27s%2A.pdf");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("60");
    expect(url.searchParams.get("response-content-disposition")).toBe(disposition);
    expect(url.searchParams.get("response-content-type")).toBe("application/pdf");
    expect(url.searchParams.get("X-Amz-Security-Token")).toBe(CREDENTIALS.sessionToken);
    const expected = await signer.presign(
      {
        method: "GET",
        protocol: "https:",
        hostname: url.hostname,
        path: url.pathname,
        query: { "response-content-disposition": disposition, "response-content-type": "application/pdf" },
        // What the SDK's S3 presigner adds: a presigned URL signs no payload.
        headers: { host: url.hostname, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
      },
      {
        expiresIn: 60,
        signingDate: NOW,
        unhoistableHeaders: new Set(["x-amz-content-sha256"]),
        unsignableHeaders: new Set(["x-amz-content-sha256"]),
      },
    );
    expect(url.searchParams.get("X-Amz-Credential")).toBe(expected.query!["X-Amz-Credential"]);
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
    expect(url.searchParams.get("X-Amz-Signature")).toBe(expected.query!["X-Amz-Signature"]);
  });

  it("signs a PUT with its metadata headers as the SDK's signer does for the same signed headers", async () => {
    const requests: Request[] = [];
    vi.stubGlobal("fetch", async (request: Request) => {
      requests.push(request);
      return new Response(null, { status: 200 });
    });
    const body = new TextEncoder().encode("bytes");
    await store().put(KEY, body, { contentType: "application/pdf", contentDisposition: 'inline; filename="a.pdf"', cacheControl: "max-age=60" });

    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    const url = new URL(request.url);
    expect(request.method).toBe("PUT");
    expect(url.pathname).toBe("/7/ab/x_y-Z1/report%20%28final%29%20it%27s%2A.pdf");
    expect(request.headers.get("content-disposition")).toBe('inline; filename="a.pdf"');
    expect(request.headers.get("cache-control")).toBe("max-age=60");
    const authorization = request.headers.get("authorization")!;
    const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(";");
    expect(signedHeaders).toEqual(expect.arrayContaining(["host", "x-amz-content-sha256", "x-amz-date", "x-amz-security-token"]));
    const headers: Record<string, string> = { host: url.host };
    request.headers.forEach((value, name) => {
      if (name !== "authorization") headers[name] = value;
    });
    const expected = await signer.sign(
      { method: "PUT", protocol: "https:", hostname: url.hostname, path: url.pathname, query: {}, headers, body },
      {
        signingDate: NOW,
        signableHeaders: new Set(signedHeaders),
        unsignableHeaders: new Set(Object.keys(headers).filter((h) => !signedHeaders.includes(h))),
      },
    );
    expect(authorization).toBe(expected.headers.authorization);
  });

  it("reads a missing key as absent and throws S3's other refusals with their code", async () => {
    const answers = [
      new Response("<Error><Code>NoSuchKey</Code></Error>", { status: 404 }),
      new Response("<Error><Code>AccessDenied</Code></Error>", { status: 403 }),
    ];
    vi.stubGlobal("fetch", async () => answers.shift()!);
    const files = store();
    expect(await files.get("7/absent")).toBeUndefined();
    await expect(files.get("7/denied")).rejects.toMatchObject({ name: "AccessDenied" });
  });
});
