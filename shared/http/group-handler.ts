import middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { getDefaultDeps, type Deps } from "../deps.js";
import type { EndpointMap } from "./context.js";
import { apiContext } from "./middleware/api-context.js";
import { authenticate } from "./middleware/authenticate.js";
import { contentEncoding } from "./middleware/content-encoding.js";
import { errorEnvelope } from "./middleware/error-envelope.js";
import { enforceRateLimit, rateLimitResponseHeaders, startRateLimit } from "./middleware/rate-limit.js";
import { requestLog } from "./middleware/request-log.js";
import type { ApiInternal, ApiLambdaContext } from "./middleware/types.js";
import { RouteNotFoundError } from "../errors.js";
import { RedirectResult, redirectResponse, successResponse } from "./response.js";

/**
 * Builds the Lambda handler of one endpoint group: a middy chain doing what
 * every request needs (logging, error envelopes, route and parameter
 * parsing, rate limits, authentication), whose body calls the route's endpoint and wraps
 * its result in the success envelope.
 * @param endpoints the group's endpoints, keyed by the route table's `endpoint` names
 * @param options.deps dependency source; defaults to the process-wide {@link getDefaultDeps}
 */
export function groupHandler(endpoints: EndpointMap, options: { deps?: () => Deps } = {}) {
  const deps = options.deps ?? getDefaultDeps;
  const log = () => deps().log;
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiLambdaContext, ApiInternal>()
    .use(requestLog({ log }))
    .use(contentEncoding({ log }))
    .use(rateLimitResponseHeaders())
    .use(errorEnvelope({ log }))
    .use(apiContext({ deps }))
    .use(startRateLimit())
    .use(authenticate())
    .use(enforceRateLimit())
    .handler(async (_event, context) => {
      const ctx = context.api!;
      const endpoint = endpoints[ctx.route.endpoint];
      // The route table names an endpoint this group does not have: a deploy error, caught by tests.
      if (!endpoint) throw new RouteNotFoundError();
      const result = await endpoint(ctx as never);
      return result instanceof RedirectResult ? redirectResponse(result) : successResponse(result);
    });
}
