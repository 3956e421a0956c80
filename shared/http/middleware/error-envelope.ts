import { JsonableError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { errorResponse, internalErrorResponse } from "../response.js";
import type { ApiMiddleware } from "./types.js";

/**
 * Renders errors as Zulip envelopes (middy `onError`). A {@link JsonableError}
 * is safe to show and becomes its envelope and status; anything else is
 * logged with its stack and answered with a generic 500 that reveals nothing.
 * @param options.log where unexpected errors are logged
 */
export function errorEnvelope(options: { log: () => Logger }): ApiMiddleware {
  return {
    onError: async (request) => {
      const err = request.error;
      if (err instanceof JsonableError) {
        request.response = errorResponse(err);
        return;
      }
      (request.context.log ?? options.log()).error("unhandled error", {
        error: err instanceof Error ? err.message : String(err),
        stack: err instanceof Error ? err.stack : undefined,
      });
      request.response = internalErrorResponse();
    },
  };
}
