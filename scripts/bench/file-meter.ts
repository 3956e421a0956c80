import type { FilesDeps } from "../../shared/deps.js";
import type { FileStore } from "../../shared/storage/file-store.js";
import { originOfCurrentCall, type Origin } from "./meter.js";

/**
 * Counts S3 work without touching shared code, as `meter.ts` does for
 * DynamoDB: the bench replaces the stack's `deps.files` by a wrapper that
 * counts every call of the file store (and its bytes) before passing it on.
 * Requests copy `deps` when they start, so the wrapper installed before the
 * first request sees every call; calls under a deferred job (`runJob`) are
 * told apart from request calls the same way as DynamoDB calls.
 *
 * A presign is no S3 request (the URL is signed locally), but each one is
 * a GET the client then makes to S3: the cost report prices it as one.
 */

/** S3 work of one origin (or of everything). */
export interface FileTotals {
  /** PutObject calls and the bytes they stored. */
  puts: number;
  putBytes: number;
  /** GetObject calls and the bytes they returned (a missing object returns 0). */
  gets: number;
  getBytes: number;
  /** Presigned GET URLs handed out (each is one S3 GET by the client). */
  presigns: number;
  /** DeleteObjects calls (up to 1,000 keys each) and the keys they named. */
  deletes: number;
  deletedKeys: number;
}

/** A point-in-time copy of the counters; subtract two with {@link diffFiles}. */
export interface FileSnapshot {
  request: FileTotals;
  deferred: FileTotals;
}

/** Work between two snapshots, per origin and in all. */
export interface FileDelta {
  request: FileTotals;
  deferred: FileTotals;
  all: FileTotals;
}

/** All-zero totals. */
export function emptyFileTotals(): FileTotals {
  return { puts: 0, putBytes: 0, gets: 0, getBytes: 0, presigns: 0, deletes: 0, deletedKeys: 0 };
}

function combineFiles(a: FileTotals, b: FileTotals, sign: 1 | -1): FileTotals {
  const out = emptyFileTotals();
  for (const k of Object.keys(out) as (keyof FileTotals)[]) out[k] = a[k] + sign * b[k];
  return out;
}

/** The sum of two totals. */
export function addFileTotals(a: FileTotals, b: FileTotals): FileTotals {
  return combineFiles(a, b, 1);
}

/** What happened between `before` and `after`. */
export function diffFiles(after: FileSnapshot, before: FileSnapshot): FileDelta {
  const request = combineFiles(after.request, before.request, -1);
  const deferred = combineFiles(after.deferred, before.deferred, -1);
  return { request, deferred, all: addFileTotals(request, deferred) };
}

/**
 * S3 requests a delta makes: PUT-class (PutObject; DeleteObjects is free
 * on S3 and left out) and GET-class (GetObject, and one per presigned URL,
 * fetched by the client).
 */
export function s3Requests(t: FileTotals): { put: number; get: number } {
  return { put: t.puts, get: t.gets + t.presigns };
}

/** The live counters of one file store. */
export class FileStoreMeter {
  private readonly totals: Record<Origin, FileTotals> = { request: emptyFileTotals(), deferred: emptyFileTotals() };

  /** Replaces `deps.files` by a counting wrapper of it. Call once, before any request. */
  install(deps: Pick<FilesDeps, "files">): void {
    deps.files = this.wrap(deps.files);
  }

  /** A file store that counts each call into this meter, then makes it on `inner`. */
  wrap(inner: FileStore): FileStore {
    const t = () => this.totals[originOfCurrentCall()];
    return {
      put: async (key, body, metadata) => {
        const totals = t();
        totals.puts++;
        totals.putBytes += body.length;
        await inner.put(key, body, metadata);
      },
      get: async (key) => {
        const totals = t();
        totals.gets++;
        const bytes = await inner.get(key);
        totals.getBytes += bytes?.length ?? 0;
        return bytes;
      },
      delete: async (keys) => {
        const totals = t();
        totals.deletes += Math.ceil(keys.length / 1000);
        totals.deletedKeys += keys.length;
        await inner.delete(keys);
      },
      presignGet: async (key, expiresInSeconds, responseHeaders) => {
        t().presigns++;
        return inner.presignGet(key, expiresInSeconds, responseHeaders);
      },
      // Multipart uploads (organization exports) are not on any benched path: passed through uncounted.
      createMultipartUpload: (key, metadata) => inner.createMultipartUpload(key, metadata),
      uploadPart: (key, uploadId, partNumber, body) => inner.uploadPart(key, uploadId, partNumber, body),
      completeMultipartUpload: (key, uploadId, parts) => inner.completeMultipartUpload(key, uploadId, parts),
      abortMultipartUpload: (key, uploadId) => inner.abortMultipartUpload(key, uploadId),
    };
  }

  /** Copies the counters now. */
  snapshot(): FileSnapshot {
    return { request: { ...this.totals.request }, deferred: { ...this.totals.deferred } };
  }
}
