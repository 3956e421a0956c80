import type middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { Logger } from "../../logger.js";
import type { ApiContext } from "../context.js";
import type { RateLimitScope, SlidingWindowCounts } from "../../data/rate-limits.js";
import type { RateLimitRule, RateLimitVerdict, SlidingWindowPlan } from "../../domain/rate-limit.js";

/** Lambda context extended with the request's {@link ApiContext} once it is built. */
export interface ApiLambdaContext extends Context {
  api?: ApiContext;
  /** The request's logger (request ID, route, realm and user on every line), set first in the chain. */
  log?: Logger;
}

/** The counter a request hits: which rule, and whose count. */
export interface RateLimitTarget {
  scope: RateLimitScope;
  subject: string;
  rule: RateLimitRule;
}

/**
 * State the middlewares of one request pass each other in middy's
 * `request.internal`, which lives exactly as long as the request.
 */
export interface ApiInternal extends Record<string, unknown> {
  /** Set by `startRateLimit` when the request hits a counter. */
  rateLimit?: {
    target: RateLimitTarget;
    plan: SlidingWindowPlan;
    /** The counter write started before authentication; undefined when it counted nothing (or failed). */
    pending: Promise<SlidingWindowCounts | undefined>;
    /** Whether `pending` may have found no item to add to (an API key's counts exist only once the key proved valid). */
    onlyExisting: boolean;
    /** Set by `enforceRateLimit`, read for the response headers. */
    verdict?: RateLimitVerdict;
  };
}

export type ApiRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiLambdaContext, ApiInternal>;
export type ApiMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  ApiLambdaContext,
  ApiInternal
>;
