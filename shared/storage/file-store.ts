import {
  DeleteObjectsCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
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
  /** The object's bytes, or `undefined` when there is none. @throws Error for other S3 failures */
  get(key: string): Promise<Uint8Array | undefined>;
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
}

/** S3's limit of keys in one DeleteObjects request. */
const DELETE_BATCH = 1000;

/**
 * The S3 file store of the deployment's bucket (`FILES_BUCKET`), with
 * path-style URLs when `S3_ENDPOINT` points at the local emulator.
 * Without `FILES_BUCKET` every operation throws (unit tests need no bucket).
 */
export function createS3FileStore(config: Config, client?: S3Client): FileStore {
  const bucket = config.FILES_BUCKET;
  let s3 = client;
  const ready = (): { s3: S3Client; bucket: string } => {
    if (!bucket) throw new Error("FILES_BUCKET is not configured");
    s3 ??= new S3Client({
      region: config.AWS_REGION,
      ...(config.S3_ENDPOINT
        ? {
            endpoint: config.S3_ENDPOINT,
            forcePathStyle: true,
            credentials: { accessKeyId: "local", secretAccessKey: "local" },
          }
        : {}),
    });
    return { s3, bucket };
  };
  return {
    async put(key, body, metadata) {
      const { s3, bucket } = ready();
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: metadata.contentType,
          ContentDisposition: metadata.contentDisposition,
          CacheControl: metadata.cacheControl,
        }),
      );
    },
    async get(key) {
      const { s3, bucket } = ready();
      try {
        const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === "NoSuchKey") return undefined;
        throw err;
      }
    },
    async delete(keys) {
      if (keys.length === 0) return;
      const { s3, bucket } = ready();
      const batches: string[][] = [];
      for (let i = 0; i < keys.length; i += DELETE_BATCH) batches.push(keys.slice(i, i + DELETE_BATCH));
      await Promise.all(
        batches.map((batch) =>
          s3.send(
            new DeleteObjectsCommand({
              Bucket: bucket,
              Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
            }),
          ),
        ),
      );
    },
    async presignGet(key, expiresInSeconds, responseHeaders = {}) {
      const { s3, bucket } = ready();
      return getSignedUrl(
        s3,
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ResponseContentDisposition: responseHeaders.contentDisposition,
          ResponseContentType: responseHeaders.contentType,
        }),
        { expiresIn: expiresInSeconds },
      );
    },
  };
}
