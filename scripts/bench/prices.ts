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
}

/** Where each price was read. */
export const PRICE_SOURCES = {
  lambda: "https://aws.amazon.com/lambda/pricing/",
  httpApi: "https://aws.amazon.com/api-gateway/pricing/",
  dynamodb: "https://aws.amazon.com/dynamodb/pricing/on-demand/",
  sqs: "https://aws.amazon.com/sqs/pricing/",
} as const;

/**
 * us-east-1 prices checked November 2026. DynamoDB on-demand is the price
 * after the November 2024 reduction ($0.625 / $0.125 per million units).
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
};

/** One line naming the prices and their sources, for the report. */
export function pricesLine(p: Prices = AWS_PRICES): string {
  return [
    `Prices (${p.region}, checked ${p.checked}, free tiers left out): Lambda arm64 $${p.lambdaGbSecond} per GB-s and $${(p.lambdaRequest * 1e6).toFixed(2)} per million requests (${PRICE_SOURCES.lambda});`,
    `  HTTP API $${(p.httpApiRequest * 1e6).toFixed(2)} per million requests (${PRICE_SOURCES.httpApi}); DynamoDB on-demand $${(p.dynamoWriteUnit * 1e6).toFixed(3)} per million WRU and`,
    `  $${(p.dynamoReadUnit * 1e6).toFixed(3)} per million RRU (${PRICE_SOURCES.dynamodb}); SQS $${(p.sqsRequest * 1e6).toFixed(2)} per million requests (${PRICE_SOURCES.sqs}).`,
  ].join("\n");
}
