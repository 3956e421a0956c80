import type { Deps } from "../../deps.js";
import { RouteNotFoundError, MethodNotAllowedError, UnknownHostError } from "../../errors.js";
import { matchRequestPath, routeByKey, type Route } from "../../routes.js";
import { clientNameOf } from "../client-name.js";
import { subdomainOf } from "../host.js";
import { bodyBytes, collectRawParams, header } from "../raw-params.js";
import type { ApiMiddleware } from "./types.js";

/**
 * Builds the request's {@link ApiContext} (middy `before`): finds the route
 * from API Gateway's `routeKey` (or, behind the `$default` route, by matching
 * the path), then collects query and body parameters.
 * @throws RouteNotFoundError 404 / MethodNotAllowedError 405 when nothing serves the request
 * @throws UnknownHostError 400 for a Host outside the root domain
 */
export function apiContext(options: { deps: Deps }): ApiMiddleware {
  return {
    before: async (request) => {
      const event = request.event;
      let route: Route | undefined = routeByKey(event.routeKey);
      let pathParams: Record<string, string> = event.pathParameters ? { ...event.pathParameters } as Record<string, string> : {};
      if (!route) {
        const match = matchRequestPath(event.requestContext.http.method, event.rawPath);
        if (match.kind === "notFound") throw new RouteNotFoundError();
        if (match.kind === "wrongMethod") throw new MethodNotAllowedError(match.allowed);
        route = match.route;
        pathParams = match.pathParameters;
      }
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
