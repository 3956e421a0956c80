import type { Logger } from "../../logger.js";
import type { ApiMiddleware, ApiRequest } from "./types.js";

/**
 * Logs one line per request after the response is known: route, status,
 * duration in milliseconds and the caller's user ID.
 */
export function requestLog(options: { log: () => Logger }): ApiMiddleware {
  const started = new WeakMap<object, number>();
  const write = (request: ApiRequest) => {
    const start = started.get(request.event) ?? Date.now();
    options.log().info("request", {
      route: request.event.routeKey,
      path: request.event.rawPath,
      status: request.response?.statusCode,
      ms: Date.now() - start,
      user_id: request.context.api?.user?.user_id,
    });
  };
  return {
    before: async (request) => {
      started.set(request.event, Date.now());
    },
    after: async (request) => write(request),
    onError: async (request) => write(request),
  };
}
