import { createHash } from "node:crypto";
import { AwsClient } from "aws4fetch";
import type { Config } from "../config.js";

/** What {@link FileStore.put} records with the bytes, served back by S3 on a presigned GET. */
export interface StoredFileMetadata {
  /** MIME type, e.g. `image/png`; `application/octet-stream` when unknown. */
  contentType: string;
  /** `Content-Disposition` header S3 answers with, e.g. `attachment; filename="a.pdf"`. */
  contentDisposition?: string;
  /** `Cache-Control` header S3 answers with (avatars and emoji are immutable per key). */
  cacheControl?: string;
}

/**
 * Where file bytes live: uploads, avatars, custom emoji, organization icons
 * and logos. On AWS one private S3 bucket; locally the S3 emulator that
 * runs in the same process as the SQS one. Keys are built by the callers
 * (`<realm_id>/<random path>/<sanitized name>` for uploads, as Zulip's S3
 * backend names them); this module never lists the bucket on a request path.
 */
export interface FileStore {
  /** Stores `body` (bytes) under `key`, replacing any object there. @throws Error when S3 refuses */
  put(key: string, body: Uint8Array, metadata: StoredFileMetadata): Promise<void>;
  /**
   * The object's bytes, or `undefined` when there is none.
   * @param options.maxBytes refuse a larger object before reading its body (by its `Content-Length`)
   * @throws ObjectTooLargeError over `maxBytes`; Error for other S3 failures
   */
  get(key: string, options?: { maxBytes?: number }): Promise<Uint8Array | undefined>;
  /** Deletes objects (absent ones are no error), up to 1,000 keys per S3 call, calls in parallel. */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * A URL that GETs `key` without credentials until it expires: S3's
   * presigned URL (Zulip's S3 backend redirects to one).
   * @param expiresInSeconds seconds the URL stays valid (1 to 604,800)
   * @param responseHeaders overrides S3 answers with (download name, type)
   */
  presignGet(
    key: string,
    expiresInSeconds: number,
    responseHeaders?: { contentDisposition?: string; contentType?: string },
  ): Promise<string>;
  /**
   * Starts a multipart upload (for objects built piece by piece, too large
   * to hold in memory: organization exports). Parts are at least 5 MiB
   * except the last; at most 10,000 of them.
   * @returns the upload's ID
   * @see https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateMultipartUpload.html
   */
  createMultipartUpload(key: string, metadata: StoredFileMetadata): Promise<string>;
  /** Uploads part `partNumber` (1 to 10,000) of an upload. @returns the part's ETag, which completing needs */
  uploadPart(key: string, uploadId: string, partNumber: number, body: Uint8Array): Promise<string>;
  /** Joins the uploaded parts, in order, into the object. @throws Error when S3 refuses (a part too small, a wrong ETag) */
  completeMultipartUpload(key: string, uploadId: string, parts: readonly { partNumber: number; etag: string }[]): Promise<void>;
  /** Drops an unfinished upload and its parts (a failed export). */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
}

/** An object larger than a reader's limit (`FileStore.get`'s `maxBytes`): its body was not read. */
export class ObjectTooLargeError extends Error {
  constructor(
    readonly key: string,
    readonly size: number,
  ) {
    super(`object ${key} is ${size} bytes, over the limit`);
    this.name = "ObjectTooLargeError";
  }
}

/** S3's limit of keys in one DeleteObjects request. */
const DELETE_BATCH = 1000;

/**
 * Retries of a request S3 answers with 5xx or 429 (aws4fetch backs off
 * exponentially from 50 ms): three attempts in all, as the AWS SDK makes.
 */
const RETRIES = 2;

/** Percent-encodes every byte but RFC 3986's unreserved characters: SigV4's canonical URI encoding of one path segment. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Escapes text for an XML element's content. */
function xmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The error of a refused S3 request: S3's error code (`NoSuchKey`,
 * `AccessDenied`, …, from its XML body) as `name`, so callers can tell
 * them apart as they could the SDK's errors.
 */
async function s3Error(response: Response, operation: string): Promise<Error> {
  const body = await response.text().catch(() => "");
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? `Http${response.status}`;
  const error = new Error(`S3 ${operation} failed with ${response.status} ${code}`);
  error.name = code;
  return error;
}

/**
 * The S3 file store of the deployment's bucket (`FILES_BUCKET`): S3's REST
 * API over `fetch`, each request signed with Signature Version 4 by
 * `aws4fetch` (the AWS SDK's S3 client and presigner are about 170 KiB of
 * a bundle; docs/performance.md, "Bundles"), with the credentials Lambda
 * puts in the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
 * `AWS_SESSION_TOKEN`). Virtual-hosted URLs
 * (`https://<bucket>.s3.<region>.amazonaws.com/<key>`) on AWS, path-style
 * ones (`<S3_ENDPOINT>/<bucket>/<key>`) when `S3_ENDPOINT` points at the
 * local emulator, which takes any credentials. Without `FILES_BUCKET` every
 * operation throws (unit tests need no bucket).
 *
 * @see https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html (and GetObject, DeleteObjects)
 * @see https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html (presigned URLs)
 */
export function createS3FileStore(config: Config): FileStore {
  const bucket = config.FILES_BUCKET;
  let client: AwsClient | undefined;
  const ready = (): { client: AwsClient; bucketUrl: string } => {
    if (!bucket) throw new Error("FILES_BUCKET is not configured");
    const local = config.S3_ENDPOINT !== undefined;
    if (!local && (!config.AWS_ACCESS_KEY_ID || !config.AWS_SECRET_ACCESS_KEY)) {
      throw new Error("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set");
    }
    client ??= new AwsClient({
      accessKeyId: local ? "local" : config.AWS_ACCESS_KEY_ID!,
      secretAccessKey: local ? "local" : config.AWS_SECRET_ACCESS_KEY!,
      sessionToken: local ? undefined : config.AWS_SESSION_TOKEN,
      service: "s3",
      region: config.AWS_REGION,
      retries: RETRIES,
    });
    const bucketUrl = config.S3_ENDPOINT
      ? `${config.S3_ENDPOINT.replace(/\/+$/, "")}/${encodeSegment(bucket)}`
      : `https://${bucket}.s3.${config.AWS_REGION}.amazonaws.com`;
    return { client, bucketUrl };
  };
  const objectUrl = (bucketUrl: string, key: string) => `${bucketUrl}/${key.split("/").map(encodeSegment).join("/")}`;
  return {
    async put(key, body, metadata) {
      const { client, bucketUrl } = ready();
      const headers: Record<string, string> = { "content-type": metadata.contentType };
      if (metadata.contentDisposition !== undefined) headers["content-disposition"] = metadata.contentDisposition;
      if (metadata.cacheControl !== undefined) headers["cache-control"] = metadata.cacheControl;
      // The bytes are never in a SharedArrayBuffer (decoded uploads, sharp's output), which is all BodyInit rules out.
      const response = await client.fetch(objectUrl(bucketUrl, key), { method: "PUT", headers, body: body as Uint8Array<ArrayBuffer> });
      if (!response.ok) throw await s3Error(response, "PutObject");
      await response.body?.cancel();
    },
    async get(key, options = {}) {
      const { client, bucketUrl } = ready();
      const response = await client.fetch(objectUrl(bucketUrl, key), { method: "GET" });
      const size = Number(response.headers.get("content-length") ?? Number.NaN);
      if (response.ok && options.maxBytes !== undefined && size > options.maxBytes) {
        await response.body?.cancel();
        throw new ObjectTooLargeError(key, size);
      }
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
      const error = await s3Error(response, "GetObject");
      if (error.name === "NoSuchKey") return undefined;
      throw error;
    },
    async delete(keys) {
      if (keys.length === 0) return;
      const { client, bucketUrl } = ready();
      const batches: string[][] = [];
      for (let i = 0; i < keys.length; i += DELETE_BATCH) batches.push(keys.slice(i, i + DELETE_BATCH));
      await Promise.all(
        batches.map(async (batch) => {
          const xml = `<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>${batch
            .map((key) => `<Object><Key>${xmlText(key)}</Key></Object>`)
            .join("")}</Delete>`;
          // DeleteObjects requires a checksum of its body; Content-MD5 is the one every S3 implementation takes.
          const response = await client.fetch(`${bucketUrl}/?delete`, {
            method: "POST",
            headers: { "content-type": "application/xml", "content-md5": createHash("md5").update(xml).digest("base64") },
            body: xml,
          });
          if (!response.ok) throw await s3Error(response, "DeleteObjects");
          // A key S3 failed to delete is listed in the body; as with the SDK's DeleteObjects, that is not an error here.
          await response.body?.cancel();
        }),
      );
    },
    async presignGet(key, expiresInSeconds, responseHeaders = {}) {
      const { client, bucketUrl } = ready();
      const url = new URL(objectUrl(bucketUrl, key));
      url.searchParams.set("X-Amz-Expires", String(expiresInSeconds));
      if (responseHeaders.contentDisposition !== undefined) url.searchParams.set("response-content-disposition", responseHeaders.contentDisposition);
      if (responseHeaders.contentType !== undefined) url.searchParams.set("response-content-type", responseHeaders.contentType);
      const signed = await client.sign(url.toString(), { method: "GET", aws: { signQuery: true } });
      return signed.url;
    },
    async createMultipartUpload(key, metadata) {
      const { client, bucketUrl } = ready();
      const headers: Record<string, string> = { "content-type": metadata.contentType };
      if (metadata.contentDisposition !== undefined) headers["content-disposition"] = metadata.contentDisposition;
      const response = await client.fetch(`${objectUrl(bucketUrl, key)}?uploads`, { method: "POST", headers });
      if (!response.ok) throw await s3Error(response, "CreateMultipartUpload");
      const uploadId = /<UploadId>([^<]*)<\/UploadId>/.exec(await response.text())?.[1];
      if (!uploadId) throw new Error("S3 CreateMultipartUpload answered no UploadId");
      return uploadId;
    },
    async uploadPart(key, uploadId, partNumber, body) {
      const { client, bucketUrl } = ready();
      const url = `${objectUrl(bucketUrl, key)}?partNumber=${partNumber}&uploadId=${encodeURIComponent(uploadId)}`;
      const response = await client.fetch(url, { method: "PUT", body: body as Uint8Array<ArrayBuffer> });
      if (!response.ok) throw await s3Error(response, "UploadPart");
      await response.body?.cancel();
      const etag = response.headers.get("etag");
      if (!etag) throw new Error("S3 UploadPart answered no ETag");
      return etag;
    },
    async completeMultipartUpload(key, uploadId, parts) {
      const { client, bucketUrl } = ready();
      const xml = `<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${parts
        .map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${xmlText(p.etag)}</ETag></Part>`)
        .join("")}</CompleteMultipartUpload>`;
      const response = await client.fetch(`${objectUrl(bucketUrl, key)}?uploadId=${encodeURIComponent(uploadId)}`, {
        method: "POST",
        headers: { "content-type": "application/xml" },
        body: xml,
      });
      // S3 may answer 200 with an <Error> body when the join fails late.
      const text = await response.text();
      if (!response.ok || text.includes("<Error>")) {
        const error = new Error(`S3 CompleteMultipartUpload failed with ${response.status}`);
        error.name = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? `Http${response.status}`;
        throw error;
      }
    },
    async abortMultipartUpload(key, uploadId) {
      const { client, bucketUrl } = ready();
      const response = await client.fetch(`${objectUrl(bucketUrl, key)}?uploadId=${encodeURIComponent(uploadId)}`, { method: "DELETE" });
      if (!response.ok && response.status !== 404) throw await s3Error(response, "AbortMultipartUpload");
      await response.body?.cancel();
    },
  };
}
