/**
 * The one table of AWS prices the bench's cost report uses (us-east-1,
 * on-demand, free tiers left out). Every dollar figure in
 * docs/performance.md ("Cost report") comes from these numbers and the
 * counts a bench run measured; change a price here, not in the docs.
 */

/** Dollars per unit of each billed quantity. */
export interface Prices {
  /** When the prices were read from the pages in {@link PRICE_SOURCES}. */
  checked: string;
  region: string;
  /** Lambda duration, arm64, per GB-second (first pricing tier). */
  lambdaGbSecond: number;
  /** Lambda, per request. */
  lambdaRequest: number;
  /** API Gateway HTTP API, per request (first 300 million a month). */
  httpApiRequest: number;
  /** DynamoDB on-demand, per read request unit. */
  dynamoReadUnit: number;
  /** DynamoDB on-demand, per write request unit. */
  dynamoWriteUnit: number;
  /** SQS standard queue, per request (after the free million a month). */
  sqsRequest: number;
  /** S3 Standard, per PUT, COPY, POST or LIST request. */
  s3PutRequest: number;
  /** S3 Standard, per GET or SELECT request (a presigned GET included). */
  s3GetRequest: number;
  /** S3 Standard storage, per GB-month (first 50 TB a month). */
  s3StorageGbMonth: number;
  /** Data transfer out of S3 to the internet, per GB (first 10 TB a month, after the free 100 GB). */
  s3TransferOutGb: number;
}

/** Where each price was read. */
export const PRICE_SOURCES = {
  lambda: "https://aws.amazon.com/lambda/pricing/",
  httpApi: "https://aws.amazon.com/api-gateway/pricing/",
  dynamodb: "https://aws.amazon.com/dynamodb/pricing/on-demand/",
  sqs: "https://aws.amazon.com/sqs/pricing/",
  s3: "https://aws.amazon.com/s3/pricing/",
} as const;

/**
 * us-east-1 prices checked November 2026. DynamoDB on-demand is the price
 * after the November 2024 reduction ($0.625 / $0.125 per million units).
 * S3 is the Standard storage class: $0.005 per 1,000 PUTs, $0.0004 per
 * 1,000 GETs, $0.023 per GB-month, $0.09 per GB sent to the internet
 * (DeleteObjects is free).
 */
export const AWS_PRICES: Prices = {
  checked: "2026-11",
  region: "us-east-1",
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  httpApiRequest: 1.0 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  dynamoWriteUnit: 0.625 / 1e6,
  sqsRequest: 0.4 / 1e6,
  s3PutRequest: 0.005 / 1000,
  s3GetRequest: 0.0004 / 1000,
  s3StorageGbMonth: 0.023,
  s3TransferOutGb: 0.09,
};

/** One line naming the prices and their sources, for the report. */
export function pricesLine(p: Prices = AWS_PRICES): string {
  return [
    `Prices (${p.region}, checked ${p.checked}, free tiers left out): Lambda arm64 $${p.lambdaGbSecond} per GB-s and $${(p.lambdaRequest * 1e6).toFixed(2)} per million requests (${PRICE_SOURCES.lambda});`,
    `  HTTP API $${(p.httpApiRequest * 1e6).toFixed(2)} per million requests (${PRICE_SOURCES.httpApi}); DynamoDB on-demand $${(p.dynamoWriteUnit * 1e6).toFixed(3)} per million WRU and`,
    `  $${(p.dynamoReadUnit * 1e6).toFixed(3)} per million RRU (${PRICE_SOURCES.dynamodb}); SQS $${(p.sqsRequest * 1e6).toFixed(2)} per million requests (${PRICE_SOURCES.sqs}).`,
  ].join("\n");
}

/** One line naming the S3 prices and their source, for the files part's report. */
export function s3PricesLine(p: Prices = AWS_PRICES): string {
  return (
    `S3 Standard (${p.region}, checked ${p.checked}): $${(p.s3PutRequest * 1000).toFixed(4)} per 1,000 PUTs, $${(p.s3GetRequest * 1000).toFixed(4)} per 1,000 GETs, ` +
    `$${p.s3StorageGbMonth} per GB-month, $${p.s3TransferOutGb} per GB out (${PRICE_SOURCES.s3}).`
  );
}
