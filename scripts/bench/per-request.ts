/**
 * Per-request figures shared by the scheduled and linkifiers parts: the
 * DynamoDB work of a measured phase divided by its requests, and what
 * 1,000 such requests cost at on-demand prices.
 */
import { originOfCurrentCall, type Origin, type Totals } from "./meter.js";
import { AWS_PRICES, type Prices } from "./prices.js";

/** DynamoDB work (and SQS requests) of one request, averaged over a phase. */
export interface PerRequest {
  /** DynamoDB calls (round trips). */
  calls: number;
  /** Read request units. */
  rcu: number;
  /** Write request units. */
  wcu: number;
  /** SQS requests (SendMessageBatch calls). */
  sqs: number;
}

/**
 * Averages a phase's totals over `requests` (at least 1).
 * @param sqsCalls SQS requests the phase made
 */
export function perRequest(t: Pick<Totals, "calls" | "rcu" | "wcu">, requests: number, sqsCalls = 0): PerRequest {
  const n = Math.max(1, requests);
  return { calls: t.calls / n, rcu: t.rcu / n, wcu: t.wcu / n, sqs: sqsCalls / n };
}

/**
 * Dollars of 1,000 requests: DynamoDB read and write units and SQS
 * requests at on-demand prices (Lambda and API Gateway are left out: they
 * are the same per request whatever the request does).
 */
export function dollarsPerThousand(w: PerRequest, p: Prices = AWS_PRICES): number {
  return 1000 * (w.rcu * p.dynamoReadUnit + w.wcu * p.dynamoWriteUnit + w.sqs * p.sqsRequest);
}

/** Dollars with enough digits for sub-cent amounts, e.g. `$0.00081`. */
export function fmtDollars(d: number): string {
  if (d === 0) return "$0";
  return `$${d.toPrecision(2).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "")}`;
}

/**
 * Counts SQS SendMessageBatch calls (and their entries) made through a
 * client, for the parts whose requests enqueue jobs, by origin like the
 * DynamoDB meter (a job's enqueues are `deferred`).
 */
export class SqsSendCounter {
  readonly calls: Record<Origin, number> = { request: 0, deferred: 0 };

  install(sqs: { middlewareStack: { add: (...args: any[]) => void } }): void {
    sqs.middlewareStack.add(
      (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: any) => {
        if (context.commandName === "SendMessageBatchCommand") {
          this.calls[originOfCurrentCall()]++;
        }
        return next(args);
      },
      { step: "initialize", name: `benchSqsSendCounter${Math.random()}`, priority: "high" },
    );
  }
}
