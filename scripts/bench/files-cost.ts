/**
 * The files part's cost arithmetic: pure functions from what the bench
 * measured for an image upload, its `thumbnail` job and a file view (CPU
 * milliseconds, DynamoDB units, S3 calls and bytes) and a price table
 * (`prices.ts`) to dollars, split into named terms. Unit-tested in
 * `files-cost.test.ts`.
 */
import { costOf, requestCost, sumCosts, type Cost } from "./cost.js";
import type { Prices } from "./prices.js";

/** Lambda memory that buys one full vCPU (Lambda gives CPU in proportion to memory). */
export const MB_PER_VCPU = 1769;

/** Bytes in the GB S3 bills storage and transfer by. */
const GB = 2 ** 30;

/**
 * Estimated billed Lambda seconds of work measured locally: the CPU time
 * stretched by the function's share of a vCPU (512 MB gets 0.29 of one,
 * so 100 ms of CPU take ~345 ms), plus the time the local run spent
 * waiting (wall minus CPU, none when native threads made CPU exceed wall).
 * Waits on the local emulators are an upper bound of AWS's.
 * @param cpuMs process CPU time of the work (all threads), ms
 * @param wallMs its wall time, ms
 * @param memoryMb the function's memory, MB
 * @returns seconds
 */
export function estimatedLambdaSeconds(cpuMs: number, wallMs: number, memoryMb: number): number {
  const share = Math.min(1, memoryMb / MB_PER_VCPU);
  return (cpuMs / share + Math.max(0, wallMs - cpuMs)) / 1000;
}

/** One piece of billed work around files: a Lambda's seconds, DynamoDB units, S3 requests. */
export interface FileWork {
  memoryMb: number;
  seconds: number;
  readUnits: number;
  writeUnits: number;
  s3Puts: number;
  /** S3 GETs, a client's GET of a presigned URL included. */
  s3Gets: number;
}

/** What one image upload costs, end to end. */
export interface ImageUploadWork {
  /** `POST /user_uploads` (files function). */
  upload: FileWork;
  /** The `thumbnail` job (worker function). */
  job: FileWork & {
    /** SQS requests of the job: its send, its share of a receive, its delete. */
    sqsRequests: number;
  };
  /** Bytes stored: the original, and its thumbnails. */
  originalBytes: number;
  thumbnailBytes: number;
  /** Months the bytes stay stored. */
  months: number;
}

/**
 * Dollars of one image upload: the upload request (Lambda at the files
 * function's memory, HTTP API, DynamoDB, S3 PUT), the thumbnail job
 * (Lambda at the worker's memory, one invocation per job — SQS batches
 * make it less —, SQS, DynamoDB, S3 GET of the original and PUTs of the
 * thumbnails) and storage of the original and the thumbnails.
 */
export function imageUploadCost(w: ImageUploadWork, p: Prices): Cost {
  const gbSeconds = (x: FileWork) => (x.memoryMb / 1024) * x.seconds;
  const up = gbSeconds(w.upload);
  const job = gbSeconds(w.job);
  const reads = w.upload.readUnits + w.job.readUnits;
  const writes = w.upload.writeUnits + w.job.writeUnits;
  const puts = w.upload.s3Puts + w.job.s3Puts;
  const gets = w.upload.s3Gets + w.job.s3Gets;
  const original = (w.originalBytes / GB) * w.months;
  const thumbs = (w.thumbnailBytes / GB) * w.months;
  return costOf([
    { term: "upload Lambda duration", quantity: up, unit: "GB-s", dollars: up * p.lambdaGbSecond },
    { term: "thumbnail job Lambda duration", quantity: job, unit: "GB-s", dollars: job * p.lambdaGbSecond },
    { term: "Lambda requests", quantity: 2, unit: "requests", dollars: 2 * p.lambdaRequest },
    { term: "HTTP API requests", quantity: 1, unit: "requests", dollars: p.httpApiRequest },
    { term: "SQS requests", quantity: w.job.sqsRequests, unit: "requests", dollars: w.job.sqsRequests * p.sqsRequest },
    { term: "DynamoDB reads", quantity: reads, unit: "RRU", dollars: reads * p.dynamoReadUnit },
    { term: "DynamoDB writes", quantity: writes, unit: "WRU", dollars: writes * p.dynamoWriteUnit },
    { term: "S3 PUTs", quantity: puts, unit: "requests", dollars: puts * p.s3PutRequest },
    { term: "S3 GETs", quantity: gets, unit: "requests", dollars: gets * p.s3GetRequest },
    { term: "S3 storage, original", quantity: original, unit: "GB-month", dollars: original * p.s3StorageGbMonth },
    { term: "S3 storage, thumbnails", quantity: thumbs, unit: "GB-month", dollars: thumbs * p.s3StorageGbMonth },
  ]);
}

/**
 * Dollars of one view of a stored file through its redirect: the request
 * (Lambda, HTTP API, DynamoDB), the client's GET of the presigned URL and
 * the bytes S3 sends it.
 * @param bytes size of the object the client downloads
 */
export function fileViewCost(w: FileWork, bytes: number, p: Prices): Cost {
  const out = bytes / GB;
  return sumCosts([
    requestCost(w, p),
    costOf([
      { term: "S3 GETs", quantity: w.s3Gets, unit: "requests", dollars: w.s3Gets * p.s3GetRequest },
      { term: "S3 transfer out", quantity: out, unit: "GB", dollars: out * p.s3TransferOutGb },
    ]),
  ]);
}
