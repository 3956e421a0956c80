import middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import type { SiteDeps } from "../deps.js";
import { MethodNotAllowedError, RouteNotFoundError } from "../errors.js";
import { matchRequestPath, routeByKey, type Route } from "../routes.js";
import type { SiteCoding, SiteFile } from "../storage/site-files.js";
import { errorEnvelope } from "./middleware/error-envelope.js";
import { negotiateContentCoding } from "./middleware/content-encoding.js";
import { requestLog } from "./middleware/request-log.js";
import type { ApiInternal, ApiLambdaContext } from "./middleware/types.js";

/** What a site endpoint receives: the matched route, its path parameters and the request's method and headers. */
export interface SiteContext {
  deps: SiteDeps;
  route: Route;
  pathParams: Record<string, string>;
  /** Upper case: `GET` or `HEAD`. */
  method: string;
  /** Header values by lower-cased name. */
  header(name: string): string | undefined;
}

/** A site endpoint's answer: any status, headers and bytes (not an API envelope). */
export interface SiteResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type SiteEndpoint = (ctx: SiteContext) => Promise<SiteResponse>;

/** The `web` group's endpoints by the route table's names. */
export type SiteEndpointMap = Record<string, SiteEndpoint>;

/**
 * The Lambda handler of the `web` group, which serves the built web app: a
 * shorter middy chain than `groupHandler`'s (request log and error envelopes
 * only). Its routes are public files, the same for every organization and
 * visitor, so nothing authenticates, counts rate limits (Zulip serves its
 * static files from nginx, outside its rate limits) or reads the table; its
 * errors are still Zulip's JSON envelopes (an unknown file is 404 `Not Found`).
 *
 * The response body is always sent base64-encoded (`isBase64Encoded`, as API
 * Gateway's payload 2.0 needs for bytes); `HEAD` answers the `GET` headers
 * without the body.
 * @param endpoints the group's endpoints, keyed by the route table's `endpoint` names
 * @param deps built once per cold start (`functions/lambdas/web.setup.ts`, or the local stack)
 */
export function siteHandler(endpoints: SiteEndpointMap, deps: SiteDeps) {
  const log = () => deps.log;
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiLambdaContext, ApiInternal>()
    .use(requestLog({ log }))
    .use(errorEnvelope({ log }))
    .handler(async (event, context) => {
      const method = event.requestContext.http.method.toUpperCase();
      let route = routeByKey(event.routeKey);
      let pathParams = (event.pathParameters ?? {}) as Record<string, string>;
      if (!route) {
        const match = matchRequestPath(method, event.rawPath);
        if (match.kind === "notFound") throw new RouteNotFoundError();
        if (match.kind === "wrongMethod") throw new MethodNotAllowedError(match.allowed);
        ({ route, pathParameters: pathParams } = match);
      }
      const endpoint = endpoints[route.endpoint];
      if (!endpoint) throw new RouteNotFoundError();
      const response = await endpoint({
        deps: context.log ? { ...deps, log: context.log } : deps,
        route,
        pathParams,
        method,
        header: (name) => headerOf(event, name),
      });
      return {
        statusCode: response.statusCode,
        headers: response.headers,
        body: method === "HEAD" ? "" : response.body.toString("base64"),
        isBase64Encoded: method !== "HEAD",
      };
    });
}

/** The codings a stored file is offered in, best first. */
const SITE_CODINGS: readonly SiteCoding[] = ["br", "gzip"];

/**
 * The answer for one site file: its stored form the client accepts best
 * (`br`, `gzip` or identity, by `Accept-Encoding`; `Vary: Accept-Encoding`
 * always), its `Content-Type`, a strong entity tag per form, and 304 Not
 * Modified when `If-None-Match` names the tag of the form it would get.
 * @param headers what the caller adds (`Cache-Control`, security headers)
 */
export function siteFileResponse(ctx: SiteContext, file: SiteFile, headers: Record<string, string>): SiteResponse {
  const available = SITE_CODINGS.filter((c) => file.encoded[c] !== undefined);
  const coding = negotiateContentCoding(ctx.header("accept-encoding"), available);
  const etag = `"${file.hash}${coding ? `-${coding}` : ""}"`;
  const base = {
    ...headers,
    "content-type": file.contentType,
    etag,
    vary: "Accept-Encoding",
  };
  if (ifNoneMatch(ctx.header("if-none-match"), etag)) return { statusCode: 304, headers: base, body: Buffer.alloc(0) };
  return coding
    ? { statusCode: 200, headers: { ...base, "content-encoding": coding }, body: file.encoded[coding]! }
    : { statusCode: 200, headers: base, body: file.bytes };
}

/** Whether an `If-None-Match` header (RFC 9110 §13.1.2, weak comparison) lists `etag`. */
function ifNoneMatch(value: string | undefined, etag: string): boolean {
  if (!value) return false;
  if (value.trim() === "*") return true;
  return value.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** A request header by name, whatever its case (API Gateway lower-cases them; tests may not). */
function headerOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
}
