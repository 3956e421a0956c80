import middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import type { Deps } from "../deps.js";
import type { RouteFinder } from "../routing.js";
import type { EndpointMap } from "./context.js";
import { apiContext } from "./middleware/api-context.js";
import { authenticate } from "./middleware/authenticate.js";
import { contentEncoding } from "./middleware/content-encoding.js";
import { errorEnvelope } from "./middleware/error-envelope.js";
import { enforceRateLimit, rateLimitResponseHeaders, startRateLimit } from "./middleware/rate-limit.js";
import { requestLog } from "./middleware/request-log.js";
import type { ApiInternal, ApiLambdaContext } from "./middleware/types.js";
import { RouteNotFoundError } from "../errors.js";
import { BinaryResult, binaryResponse, cookieResponse, RedirectResult, redirectResponse, successResponse, WithCookies } from "./response.js";

/**
 * Builds the Lambda handler of one endpoint group: a middy chain doing what
 * every request needs (logging, error envelopes, route and parameter
 * parsing, rate limits, authentication), whose body calls the route's endpoint and wraps
 * its result in the success envelope.
 *
 * The group's dependencies are built once (by its Lambda entry, the local
 * stack or a test) and reach every endpoint as `ctx.deps`. Their type is
 * the endpoints': a group whose endpoints need a file store
 * (`EndpointMap<FilesDeps>`) must be given one, or the call does not compile.
 * @param endpoints the group's endpoints, keyed by the route table's `endpoint` names
 * @param deps the group's dependencies
 * @param findRoute finds a request's route among those this handler serves: `byRouteKey(routes)`
 *   (shared/routing.ts) over a group's routes, `byRouteKeyOrPath(ROUTES)` (shared/route-match.ts) for the fallback
 */
export function groupHandler<D extends Deps>(endpoints: EndpointMap<NoInfer<D>>, deps: D, findRoute: RouteFinder) {
  const log = () => deps.log;
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiLambdaContext, ApiInternal>()
    .use(requestLog({ log }))
    .use(contentEncoding({ log }))
    .use(rateLimitResponseHeaders())
    .use(errorEnvelope({ log }))
    .use(apiContext({ deps, findRoute }))
    .use(startRateLimit())
    .use(authenticate())
    .use(enforceRateLimit())
    .handler(async (_event, context) => {
      // `apiContext` put the `deps` given here (with the request's logger) into the context.
      const ctx = context.api!;
      const endpoint = endpoints[ctx.route.endpoint];
      // The route table names an endpoint this group does not have: a deploy error, caught by tests.
      if (!endpoint) throw new RouteNotFoundError();
      const result = await endpoint(ctx as never);
      if (result instanceof RedirectResult) return redirectResponse(result);
      if (result instanceof BinaryResult) return binaryResponse(result);
      return result instanceof WithCookies ? cookieResponse(result) : successResponse(result);
    });
}
