import type { Deps } from "../../deps.js";
import { RouteNotFoundError, MethodNotAllowedError, UnknownHostError } from "../../errors.js";
import type { RouteFinder } from "../../routing.js";
import { clientNameOf } from "../client-name.js";
import { subdomainOf } from "../host.js";
import { bodyBytes, collectRawParams, header } from "../raw-params.js";
import type { ApiMiddleware } from "./types.js";

/**
 * Builds the request's {@link ApiContext} (middy `before`): finds the route
 * with `findRoute` (a group's Lambda by API Gateway's `routeKey` among its
 * own routes; the `$default` fallback by matching the path against the
 * whole table), then collects query and body parameters.
 * @param options.deps the group's dependencies, given to every endpoint
 * @param options.findRoute how the route is found among the routes this handler serves
 * @throws RouteNotFoundError 404 / MethodNotAllowedError 405 when nothing serves the request
 * @throws UnknownHostError 400 for a Host outside the root domain
 */
export function apiContext(options: { deps: Deps; findRoute: RouteFinder }): ApiMiddleware {
  return {
    before: async (request) => {
      const event = request.event;
      const match = options.findRoute({
        routeKey: event.routeKey,
        method: event.requestContext.http.method,
        rawPath: event.rawPath,
        pathParameters: event.pathParameters,
      });
      if (match.kind === "notFound") throw new RouteNotFoundError();
      if (match.kind === "wrongMethod") throw new MethodNotAllowedError(match.allowed);
      const { route, pathParameters: pathParams } = match;
      const deps = options.deps;
      const params = await collectRawParams(event);
      const host = (header(event, "host") ?? event.requestContext.domainName ?? "").toLowerCase();
      const subdomain = subdomainOf(host, deps.config.ROOT_DOMAIN);
      if (subdomain === undefined) throw new UnknownHostError();
      request.context.api = {
        // The endpoint logs through the request's logger (request ID, route, caller on every line).
        deps: request.context.log ? { ...deps, log: request.context.log } : deps,
        route,
        params,
        pathParams,
        host,
        subdomain,
        clientName: clientNameOf(params.get("client"), header(event, "user-agent")),
        query: new Map(new URLSearchParams(event.rawQueryString ?? "")),
        body: bodyBytes(event),
        headers: event.headers ?? {},
        cookies: event.cookies ?? [],
        sourceIp: event.requestContext.http.sourceIp,
        requestId: event.requestContext.requestId,
        realm: null,
        user: null,
        remainingTimeMs: () =>
          typeof request.context.getRemainingTimeInMillis === "function"
            ? request.context.getRemainingTimeInMillis()
            : Number.POSITIVE_INFINITY,
      };
    },
  };
}
