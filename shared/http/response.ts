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

/**
 * What an endpoint returns to answer with a redirect instead of the JSON
 * envelope (files: Zulip's S3 backend redirects to a presigned URL).
 */
export class RedirectResult {
  /**
   * @param location absolute URL of the `Location` header
   * @param maxAgeSeconds how long a browser may reuse the redirect (`Cache-Control: private`); 0 for never
   */
  constructor(
    readonly location: string,
    readonly maxAgeSeconds = 0,
  ) {}
}

/** The 302 answer of a {@link RedirectResult}. */
export function redirectResponse(redirect: RedirectResult): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: 302,
    headers: {
      location: redirect.location,
      "cache-control": redirect.maxAgeSeconds > 0 ? `private, max-age=${redirect.maxAgeSeconds}` : "private, no-store",
      "x-content-type-options": "nosniff",
    },
    body: "",
  };
}

/**
 * What an endpoint returns to answer with bytes (an image the camo proxy
 * fetched) instead of the JSON envelope.
 */
export class BinaryResult {
  /**
   * @param contentType the body's `Content-Type`
   * @param body the bytes
   * @param headers further headers (cache, security policy)
   */
  constructor(
    readonly contentType: string,
    readonly body: Buffer,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** The 200 answer of a {@link BinaryResult}, its body base64-encoded as API Gateway wants binary bodies. */
export function binaryResponse(result: BinaryResult): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: 200,
    headers: { "content-type": result.contentType, "x-content-type-options": "nosniff", ...result.headers },
    body: result.body.toString("base64"),
    isBase64Encoded: true,
  };
}

/**
 * What an endpoint returns to answer with the success envelope and
 * cookies: API Gateway's payload 2.0 sends each entry of the result's
 * `cookies` as its own `Set-Cookie` header (a `headers` map cannot carry
 * two of one name).
 */
export class WithCookies {
  /**
   * @param fields the envelope's fields besides `result` and `msg`
   * @param cookies `Set-Cookie` values (`shared/http/cookies.ts`)
   */
  constructor(
    readonly fields: Record<string, unknown>,
    readonly cookies: string[],
  ) {}
}

/** The 200 success envelope of a {@link WithCookies}, with its cookies. */
export function cookieResponse(result: WithCookies): APIGatewayProxyStructuredResultV2 {
  return { ...successResponse(result.fields), cookies: result.cookies };
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
