import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { JsonableError } from "../errors.js";

/**
 * Request parameters as sent, before typing: name → string value.
 *
 * Zulip's wire rules put parameters in the query string for GET and in the
 * body otherwise, but real clients bend them (zulip-js sends POST bodies as
 * multipart/form-data and PATCH/DELETE parameters in the query string), so
 * every method reads both. A body parameter wins over a query parameter of
 * the same name, as in Zulip's own request parsing.
 */
export type RawParams = Map<string, string>;

/** Returns the decoded request body as bytes, or undefined when there is none. */
export function bodyBytes(event: Pick<APIGatewayProxyEventV2, "body" | "isBase64Encoded">): Buffer | undefined {
  if (event.body === undefined || event.body === null || event.body === "") return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, "base64") : Buffer.from(event.body, "utf8");
}

/** Case-insensitive header lookup on an API Gateway v2 event. */
export function header(event: Pick<APIGatewayProxyEventV2, "headers">, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/**
 * Collects the query string and an urlencoded or multipart body into one map.
 * Multipart and urlencoded parsing is done by the platform's WHATWG `Request`
 * (undici), not by hand. A JSON or other body is left for the endpoint
 * (webhooks read it raw).
 * @throws JsonableError 400 when a form body cannot be parsed
 */
export async function collectRawParams(event: APIGatewayProxyEventV2): Promise<RawParams> {
  const params: RawParams = new Map();
  for (const [k, v] of new URLSearchParams(event.rawQueryString ?? "")) params.set(k, v);

  const body = bodyBytes(event);
  const contentType = header(event, "content-type") ?? "";
  if (!body) return params;
  const isForm =
    contentType.startsWith("application/x-www-form-urlencoded") || contentType.startsWith("multipart/form-data");
  // Clients that send a body without a content type mean a form (curl -d does so with one).
  if (!isForm && contentType !== "") return params;
  try {
    const form = await new Request("http://body.invalid/", {
      method: "POST",
      headers: { "content-type": contentType || "application/x-www-form-urlencoded" },
      body: new Uint8Array(body),
    }).formData();
    for (const [k, v] of form) {
      if (typeof v === "string") params.set(k, v);
    }
  } catch {
    throw new JsonableError("Malformed request body");
  }
  return params;
}

/**
 * The parameters of a request that may send a JSON object body instead of
 * a form (the web app's login): a JSON body's string, number and boolean
 * members as strings, over the query string's; otherwise `params` as
 * collected.
 * @throws JsonableError 400 `Malformed JSON` for a JSON body that does not parse to an object
 */
export function paramsWithJsonBody(params: RawParams, contentType: string | undefined, body: Buffer | undefined): RawParams {
  if (!body || !/^application\/json\b/i.test(contentType ?? "")) return params;
  let decoded: unknown;
  try {
    decoded = JSON.parse(body.toString("utf8"));
  } catch {
    throw new JsonableError("Malformed JSON");
  }
  if (typeof decoded !== "object" || decoded === null || Array.isArray(decoded)) throw new JsonableError("Malformed JSON");
  const merged: RawParams = new Map(params);
  for (const [k, v] of Object.entries(decoded)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") merged.set(k, String(v));
  }
  return merged;
}
