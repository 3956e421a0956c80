import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { matchRequestPath, routeKey, type Group } from "../../shared/routes.js";
import type { WorkerDeps, SiteDeps } from "../../shared/deps.js";
import { groupHandlers, type GroupHandlers } from "../../functions/handlers.js";
import { deliverLocalEmail, LOCAL_INCOMING_EMAIL_PATH } from "./incoming-email.js";
import { isEmailsPath, serveEmailsPage } from "./emails-page.js";

/** API Gateway's integration timeout; the local server gives handlers the same budget. */
const INTEGRATION_TIMEOUT_MS = 29_000;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Turns a Node HTTP request into an API Gateway HTTP API payload-2.0 event,
 * matching the route table the way API Gateway does, so the handler sees
 * exactly what it sees on AWS.
 * @returns the event and the group of the matched route (undefined: the `$default` fallback's)
 */
export function toApiGatewayEvent(
  req: { method: string; url: string; headers: Record<string, string | string[] | undefined>; remoteAddress?: string },
  body: Buffer,
): { event: APIGatewayProxyEventV2; group: Group | undefined } {
  const url = new URL(req.url, "http://local");
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    // Payload 2.0 moves `Cookie` out of `headers` into `cookies`, one `name=value` per entry.
    if (k.toLowerCase() === "cookie") {
      for (const line of Array.isArray(v) ? v : [v]) cookies.push(...line.split(";").map((c) => c.trim()).filter(Boolean));
      continue;
    }
    headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  const method = req.method.toUpperCase();
  let key = "$default";
  let pathParameters: Record<string, string> | undefined;
  let group: Group | undefined;
  const match = matchRequestPath(method, url.pathname);
  if (match.kind === "found") {
    key = routeKey(match.route);
    pathParameters = match.pathParameters;
    group = match.route.group;
  }
  const now = Date.now();
  const event: APIGatewayProxyEventV2 = {
    version: "2.0",
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.startsWith("?") ? url.search.slice(1) : url.search,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
    pathParameters,
    requestContext: {
      accountId: "local",
      apiId: "local",
      domainName: headers.host ?? "127.0.0.1",
      domainPrefix: (headers.host ?? "127").split(".")[0]!,
      http: {
        method,
        path: url.pathname,
        protocol: "HTTP/1.1",
        sourceIp: req.remoteAddress ?? "127.0.0.1",
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: key,
      stage: "$default",
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
    body: body.length > 0 ? body.toString("base64") : undefined,
    isBase64Encoded: body.length > 0,
  };
  return { event, group };
}

/** A minimal Lambda context with API Gateway's time budget. */
function lambdaContext(requestId: string) {
  const deadline = Date.now() + INTEGRATION_TIMEOUT_MS;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: "local",
    functionVersion: "$LATEST",
    invokedFunctionArn: "arn:aws:lambda:local:000000000000:function:local",
    memoryLimitInMB: "256",
    awsRequestId: requestId,
    logGroupName: "local",
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

async function handle(handlers: GroupHandlers, req: IncomingMessage, res: ServerResponse, deps: WorkerDeps, mailDir: string | undefined): Promise<void> {
  // The local mailbox's page exists here only, never in the route table or a Lambda (infra/local/emails-page.ts).
  const pathname = new URL(req.url ?? "/", "http://local").pathname;
  if (mailDir !== undefined && isEmailsPath(pathname)) return serveEmailsPage(mailDir, req, res, pathname);
  const body = await readBody(req);
  // Local only, outside the route table: SES receiving's stand-in (infra/local/incoming-email.ts).
  if (req.method === "POST" && new URL(req.url ?? "/", "http://local").pathname === LOCAL_INCOMING_EMAIL_PATH) {
    const { key } = await deliverLocalEmail(deps, body);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ result: "success", msg: "", key }));
    return;
  }
  const { event, group } = toApiGatewayEvent(
    { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, remoteAddress: req.socket.remoteAddress },
    body,
  );
  const handler = handlers(group);
  let result: APIGatewayProxyStructuredResultV2;
  try {
    result = await handler(event, lambdaContext(event.requestContext.requestId));
  } catch (err) {
    console.error("handler threw", err);
    result = { statusCode: 500, body: JSON.stringify({ result: "error", msg: "Internal server error" }) };
  }
  const headers: Record<string, string | string[]> = { ...(result.headers ?? {}) } as Record<string, string>;
  // API Gateway sends each entry of a payload-2.0 result's `cookies` as its own Set-Cookie header.
  if (result.cookies && result.cookies.length > 0) headers["set-cookie"] = [...result.cookies];
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body ?? "", "base64") : (result.body ?? ""));
}

/**
 * Starts the local HTTP server that plays API Gateway in front of the same
 * handlers the Lambdas run, built over the local stack's dependencies.
 * @param port e.g. 9991
 * @param deps the local stack's dependencies (one set for every API group; they include the file store)
 * @param site the `web` group's dependencies (the built web app's files)
 * @param mailDir the local mailbox, listed at `/emails`; without it that path goes to the handlers like any other
 */
export function startApiServer(port: number, deps: WorkerDeps, site: SiteDeps, host = "127.0.0.1", mailDir?: string): Promise<Server> {
  const handlers = groupHandlers(deps, site);
  const server = createServer((req, res) => {
    handle(handlers, req, res, deps, mailDir).catch((err) => {
      console.error(err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 0;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
