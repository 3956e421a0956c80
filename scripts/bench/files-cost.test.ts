import { describe, expect, it } from "vitest";
import { estimatedLambdaSeconds, fileViewCost, imageUploadCost, MB_PER_VCPU, type ImageUploadWork } from "./files-cost.js";
import { AWS_PRICES, s3PricesLine } from "./prices.js";

const p = AWS_PRICES;

describe("the S3 prices", () => {
  it("hold the published us-east-1 Standard prices per unit", () => {
    expect(p.s3PutRequest * 1000).toBeCloseTo(0.005, 12);
    expect(p.s3GetRequest * 1000).toBeCloseTo(0.0004, 12);
    expect(p.s3StorageGbMonth).toBe(0.023);
    expect(p.s3TransferOutGb).toBe(0.09);
    expect(s3PricesLine()).toBe(
      "S3 Standard (us-east-1, checked 2026-11): $0.0050 per 1,000 PUTs, $0.0004 per 1,000 GETs, $0.023 per GB-month, $0.09 per GB out (https://aws.amazon.com/s3/pricing/).",
    );
  });
});

describe("estimatedLambdaSeconds", () => {
  it("stretches CPU time by the function's share of a vCPU and adds the waits", () => {
    // 512 MB: 512/1769 of a vCPU; 100 ms of CPU take 345.5 ms; 50 ms waited.
    expect(estimatedLambdaSeconds(100, 150, 512)).toBeCloseTo((100 * MB_PER_VCPU) / 512 / 1000 + 0.05, 12);
    expect(estimatedLambdaSeconds(100, 150, 512)).toBeCloseTo(0.39551, 5);
  });

  it("gives no more than one vCPU above 1,769 MB and counts no wait when threads made CPU exceed wall", () => {
    expect(estimatedLambdaSeconds(200, 100, 3538)).toBeCloseTo(0.2, 12);
    expect(estimatedLambdaSeconds(0, 40, 128)).toBeCloseTo(0.04, 12);
  });
});

describe("imageUploadCost", () => {
  const work: ImageUploadWork = {
    upload: { memoryMb: 1024, seconds: 0.4, readUnits: 3.5, writeUnits: 10, s3Puts: 1, s3Gets: 0 },
    job: { memoryMb: 512, seconds: 0.5, readUnits: 1, writeUnits: 3, s3Puts: 1, s3Gets: 1, sqsRequests: 3 },
    originalBytes: 2 * 2 ** 30,
    thumbnailBytes: 2 ** 29,
    months: 1,
  };

  it("splits one upload into the upload, the job and a month of storage", () => {
    const c = imageUploadCost(work, p);
    const t = (name: string) => c.terms.find((x) => x.term === name)!;
    expect(t("upload Lambda duration").quantity).toBeCloseTo(0.4, 12);
    expect(t("thumbnail job Lambda duration").quantity).toBeCloseTo(0.25, 12);
    expect(t("Lambda requests").quantity).toBe(2);
    expect(t("HTTP API requests").quantity).toBe(1);
    expect(t("SQS requests").dollars).toBeCloseTo(3 * 0.4e-6, 15);
    expect(t("DynamoDB reads").quantity).toBe(4.5);
    expect(t("DynamoDB writes").quantity).toBe(13);
    expect(t("S3 PUTs").dollars).toBeCloseTo(2 * 0.000005, 15);
    expect(t("S3 GETs").dollars).toBeCloseTo(0.0000004, 15);
    // 2 GB and 0.5 GB for one month at $0.023.
    expect(t("S3 storage, original").dollars).toBeCloseTo(0.046, 12);
    expect(t("S3 storage, thumbnails").dollars).toBeCloseTo(0.0115, 12);
    expect(c.total).toBeCloseTo(c.terms.reduce((s, x) => s + x.dollars, 0), 15);
    expect(c.total).toBeCloseTo(
      0.65 * 0.0000133334 + 2 * 0.2e-6 + 1e-6 + 1.2e-6 + 4.5 * 0.125e-6 + 13 * 0.625e-6 + 0.00001 + 0.0000004 + 0.046 + 0.0115,
      12,
    );
  });

  it("scales storage with the months kept", () => {
    const twoMonths = imageUploadCost({ ...work, months: 2 }, p);
    expect(twoMonths.terms.find((x) => x.term === "S3 storage, original")!.quantity).toBe(4);
  });
});

describe("fileViewCost", () => {
  it("adds the client's S3 GET and the bytes sent out to the request", () => {
    const c = fileViewCost({ memoryMb: 1024, seconds: 0.02, readUnits: 3.5, writeUnits: 0, s3Puts: 0, s3Gets: 1 }, 2 ** 30, p);
    const t = (name: string) => c.terms.find((x) => x.term === name)!;
    expect(t("Lambda duration").quantity).toBeCloseTo(0.02, 12);
    expect(t("S3 GETs").quantity).toBe(1);
    expect(t("S3 transfer out").dollars).toBeCloseTo(0.09, 12);
    expect(c.total).toBeCloseTo(0.02 * 0.0000133334 + 0.2e-6 + 1e-6 + 3.5 * 0.125e-6 + 0.0000004 + 0.09, 12);
  });
});
