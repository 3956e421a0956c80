import { createGzip } from "node:zlib";
import { pack as tarPack } from "tar-stream";
import type { FileStore } from "./file-store.js";

/** Size of each multipart part but the last (S3's minimum is 5 MiB). */
export const TARBALL_PART_BYTES = 8 * 1024 * 1024;

/** A `.tar.gz` object written entry by entry, see {@link openTarballUpload}. */
export interface TarballUpload {
  /** Adds a file to the archive; resolves once the parts its bytes filled are uploaded. */
  add(name: string, body: Uint8Array): Promise<void>;
  /** Ends the archive and completes the upload. @returns the object's size in bytes */
  finish(): Promise<number>;
  /** Drops the upload and its parts (on failure). */
  abort(): Promise<void>;
}

/**
 * Streams a gzip-compressed tar archive into the files bucket with a
 * multipart upload, so an archive of any size is built with bounded memory:
 * entries go through `tar-stream` and `node:zlib`'s gzip, and every
 * {@link TARBALL_PART_BYTES} of compressed output is uploaded as a part
 * before the next entry is taken. What is held at once is about one part
 * and one entry.
 * @param key the object's key
 * @throws Error when S3 refuses a request (the caller aborts)
 */
export async function openTarballUpload(files: FileStore, key: string): Promise<TarballUpload> {
  const uploadId = await files.createMultipartUpload(key, { contentType: "application/gzip" });
  const pack = tarPack();
  const gzip = createGzip();
  const parts: { partNumber: number; etag: string }[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  let uploads: Promise<void> = Promise.resolve();
  let failure: unknown;

  const flush = (): void => {
    const body = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    const partNumber = parts.length + 1;
    const slot = { partNumber, etag: "" };
    parts.push(slot);
    uploads = uploads.then(async () => {
      slot.etag = await files.uploadPart(key, uploadId, partNumber, body);
    });
    uploads.catch((err: unknown) => {
      failure ??= err;
    });
  };
  gzip.on("data", (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    total += chunk.length;
    if (pendingBytes >= TARBALL_PART_BYTES) flush();
  });
  const ended = new Promise<void>((resolve, reject) => {
    gzip.on("end", resolve);
    gzip.on("error", reject);
    pack.on("error", reject);
  });
  pack.pipe(gzip);

  return {
    async add(name, body) {
      if (failure) throw failure;
      await new Promise<void>((resolve, reject) => {
        pack.entry({ name, size: body.length, mtime: new Date(0) }, Buffer.from(body.buffer, body.byteOffset, body.length), (err) =>
          err ? reject(err) : resolve(),
        );
      });
      await uploads;
      if (failure) throw failure;
    },
    async finish() {
      pack.finalize();
      await ended;
      if (pendingBytes > 0 || parts.length === 0) flush();
      await uploads;
      if (failure) throw failure;
      await files.completeMultipartUpload(key, uploadId, parts);
      return total;
    },
    async abort() {
      pack.destroy();
      gzip.destroy();
      await uploads.catch(() => {});
      await files.abortMultipartUpload(key, uploadId);
    },
  };
}
