import { withLogKeys, type Logger } from "../../logger.js";
import type { ApiMiddleware, ApiRequest } from "./types.js";

/**
 * Gives the request its own logger and logs one line per request once the
 * response is known (status, path and duration in milliseconds).
 *
 * The request logger (`request.context.log`, and `ctx.deps.log` for the
 * endpoint) adds to every line: `request_id`, Lambda's request ID (the one
 * in the function's START/END/REPORT lines); `api_request_id`, API Gateway's
 * (the access log's `requestId`); `route`, the route key; and, once the
 * caller is known, `realm_id` and `user_id`. One request's lines can so be
 * followed in CloudWatch Logs Insights, and joined to its access-log line.
 */
export function requestLog(options: { log: () => Logger }): ApiMiddleware {
  const started = new WeakMap<object, number>();
  const write = (request: ApiRequest) => {
    const start = started.get(request.event) ?? Date.now();
    (request.context.log ?? options.log()).info("request", {
      path: request.event.rawPath,
      status: request.response?.statusCode,
      ms: Date.now() - start,
    });
  };
  return {
    before: async (request) => {
      started.set(request.event, Date.now());
      const { context, event } = request;
      context.log = withLogKeys(options.log(), () => ({
        request_id: context.awsRequestId,
        api_request_id: event.requestContext?.requestId,
        route: event.routeKey,
        realm_id: context.api?.realm?.id,
        user_id: context.api?.user?.user_id,
      }));
    },
    after: async (request) => write(request),
    onError: async (request) => write(request),
  };
}
