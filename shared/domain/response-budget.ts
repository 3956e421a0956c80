/**
 * Lambda's limit on a synchronous invocation's response payload, in bytes
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html):
 * a larger result fails on AWS however the handler ends.
 */
export const LAMBDA_RESPONSE_PAYLOAD_LIMIT = 6 * 1024 * 1024;

/**
 * The bytes a response body takes inside Lambda's response payload: the
 * runtime serialises the handler's result as JSON, so the body travels as a
 * JSON string (quotes, backslashes and control characters escaped, other
 * characters as UTF-8). A base64 body has nothing to escape: its length.
 * @param body the response body as the handler returns it
 */
export function carriedBodyBytes(body: string): number {
  return Buffer.byteLength(JSON.stringify(body), "utf8") - 2;
}

/** The bytes a JSON value adds to a response body carried by Lambda (see {@link carriedBodyBytes}). */
export function carriedJsonBytes(value: unknown): number {
  return carriedBodyBytes(JSON.stringify(value));
}
