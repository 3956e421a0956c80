import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import type { JsonableError } from "../errors.js";

/**
 * Headers of every API response: JSON, never cached by a browser or a proxy
 * (answers are per-user), never sniffed as another content type.
 */
const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" };

/** The success envelope: `{result: "success", msg: "", ...fields}` with HTTP 200. */
export function successResponse(fields: Record<string, unknown> | void): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: 200,
    headers: JSON_HEADERS,
    body: JSON.stringify({ result: "success", msg: "", ...(fields ?? {}) }),
  };
}

/** The error envelope of a {@link JsonableError}, with its status and headers. */
export function errorResponse(err: JsonableError): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: err.httpStatus,
    headers: { ...JSON_HEADERS, ...err.headers },
    body: JSON.stringify(err.toEnvelope()),
  };
}

/** The generic 500 for unexpected failures: never carries the cause. */
export function internalErrorResponse(): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: 500,
    headers: JSON_HEADERS,
    body: JSON.stringify({ result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR" }),
  };
}

/**
 * What an endpoint returns instead of envelope fields when it answers with
 * a redirect (Zulip's S3 backend sends a file as a redirect to a short-lived
 * presigned URL). The group handler turns it into a 302.
 */
export class RedirectResult {
  /**
   * @param location absolute URL to send the client to
   * @param cacheControl `Cache-Control` of the redirect; private by default, since it carries a signed URL
   */
  constructor(
    readonly location: string,
    readonly cacheControl = "private, no-store",
  ) {}
}

/** The HTTP 302 of a {@link RedirectResult}, with an empty body. */
export function redirectResponse(result: RedirectResult): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: 302,
    headers: { location: result.location, "cache-control": result.cacheControl, "x-content-type-options": "nosniff" },
    body: "",
  };
}
