import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../config.js";
import { createDeps, type Deps } from "../deps.js";
import { createLogger, withLogKeys, type Logger } from "../logger.js";
import { byRouteKey, type Route } from "../routing.js";
import type { ApiContext } from "./context.js";
import { groupHandler } from "./group-handler.js";

/** A payload-2.0 event as API Gateway sends it for `routeKey`. */
function apiEvent(routeKey: string, method: string, path: string, apiRequestId: string): APIGatewayProxyEventV2 {
  return {
    version: "2.0",
    routeKey,
    rawPath: path,
    rawQueryString: "",
    headers: { host: "chat.example.com" },
    requestContext: {
      accountId: "123456789012",
      apiId: "api",
      domainName: "chat.example.com",
      domainPrefix: "chat",
      http: { method, path, protocol: "HTTP/1.1", sourceIp: "192.0.2.1", userAgent: "test" },
      requestId: apiRequestId,
      routeKey,
      stage: "$default",
      time: "",
      timeEpoch: 0,
    },
    isBase64Encoded: false,
  };
}

/** The one route the handlers below serve. */
const SERVER_SETTINGS: Route = {
  method: "GET",
  path: "/server_settings",
  prefix: "/api/v1",
  group: "unauthenticated",
  endpoint: "getServerSettings",
  auth: "none",
};

function lambdaContext(awsRequestId: string): Context {
  return {
    awsRequestId,
    callbackWaitsForEmptyEventLoop: false,
    functionName: "f",
    functionVersion: "$LATEST",
    invokedFunctionArn: "arn:aws:lambda:us-east-1:123456789012:function:f",
    memoryLimitInMB: "256",
    logGroupName: "g",
    logStreamName: "s",
    getRemainingTimeInMillis: () => 29_000,
    done() {},
    fail() {},
    succeed() {},
  };
}

describe("structured request logs", () => {
  let lines: Record<string, unknown>[];

  beforeEach(() => {
    lines = [];
    // Powertools writes each record as one line to stdout (info) or stderr (warn, error).
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
        for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
        return true;
      });
    }
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Dependencies with the real logger and a table that holds nothing (no DynamoDB needed). */
  function fakeDeps(): Deps {
    const config = loadConfig({ TABLE_NAME: "t", ROOT_DOMAIN: "chat.example.com", RATE_LIMITS: "off", LOG_LEVEL: "info" });
    return createDeps(config, {
      db: { send: async () => ({}) } as unknown as Deps["db"],
      log: createLogger("info"),
      deferred: { enqueue: async () => {} } as unknown as Deps["deferred"],
    });
  }

  it("puts Lambda's request ID, API Gateway's and the route key on the endpoint's lines and the request line", async () => {
    const deps = fakeDeps();
    const handler = groupHandler(
      {
        getServerSettings: async (ctx: ApiContext) => {
          ctx.deps.log.info("inside the endpoint", { detail: 1 });
          return {};
        },
      },
      deps,
      byRouteKey([SERVER_SETTINGS]),
    );
    const response = await handler(
      apiEvent("GET /api/v1/server_settings", "GET", "/api/v1/server_settings", "api-req-1"),
      lambdaContext("lambda-req-1"),
    );
    expect(response.statusCode).toBe(200);
    expect(lines).toHaveLength(2);
    const [inside, request] = lines;
    const common = {
      level: "INFO",
      service: "zulip-serverless",
      request_id: "lambda-req-1",
      api_request_id: "api-req-1",
      route: "GET /api/v1/server_settings",
      timestamp: expect.any(String),
    };
    expect(inside).toMatchObject({ ...common, message: "inside the endpoint", detail: 1 });
    expect(request).toMatchObject({ ...common, message: "request", path: "/api/v1/server_settings", status: 200 });
    expect(request!.ms).toEqual(expect.any(Number));
    // No caller on an unauthenticated route in an unknown organization.
    expect(request).not.toHaveProperty("user_id");
    expect(request).not.toHaveProperty("realm_id");
  });

  it("keeps concurrent requests' keys apart, and logs an unexpected error with them", async () => {
    const deps = fakeDeps();
    const handler = groupHandler(
      {
        getServerSettings: async (ctx: ApiContext) => {
          await new Promise((resolve) => setTimeout(resolve, ctx.requestId === "api-a" ? 30 : 1));
          if (ctx.requestId === "api-b") throw new Error("boom");
          ctx.deps.log.warn("slow one");
          return {};
        },
      },
      deps,
      byRouteKey([SERVER_SETTINGS]),
    );
    const route = "GET /api/v1/server_settings";
    const [a, b] = await Promise.all([
      handler(apiEvent(route, "GET", "/api/v1/server_settings", "api-a"), lambdaContext("lambda-a")),
      handler(apiEvent(route, "GET", "/api/v1/server_settings", "api-b"), lambdaContext("lambda-b")),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 500]);
    const byRequest = (id: string) => lines.filter((l) => l.request_id === id).map((l) => [l.level, l.message, l.api_request_id]);
    expect(byRequest("lambda-a")).toEqual([
      ["WARN", "slow one", "api-a"],
      ["INFO", "request", "api-a"],
    ]);
    expect(byRequest("lambda-b")).toEqual([
      ["ERROR", "unhandled error", "api-b"],
      ["INFO", "request", "api-b"],
    ]);
    expect(lines.find((l) => l.message === "unhandled error")).toMatchObject({ route, error: "boom", stack: expect.any(String) });
  });

  it("logs the 404 of an unrouted request with its keys", async () => {
    const handler = groupHandler({}, fakeDeps(), byRouteKey([SERVER_SETTINGS]));
    const response = await handler(apiEvent("$default", "GET", "/api/v1/nope", "api-404"), lambdaContext("lambda-404"));
    expect(response.statusCode).toBe(404);
    expect(lines).toEqual([
      expect.objectContaining({ message: "request", request_id: "lambda-404", route: "$default", status: 404 }),
    ]);
  });
});

describe("withLogKeys", () => {
  const recorder = () => {
    const records: [string, string, Record<string, unknown> | undefined][] = [];
    const log: Logger = {
      debug: (msg, data) => records.push(["debug", msg, data]),
      info: (msg, data) => records.push(["info", msg, data]),
      warn: (msg, data) => records.push(["warn", msg, data]),
      error: (msg, data) => records.push(["error", msg, data]),
    };
    return { log, records };
  };

  it("adds the keys to every record, reads a key function at each record, and lets a record's data win", () => {
    const { log, records } = recorder();
    let user: number | undefined;
    const keyed = withLogKeys(log, () => ({ request_id: "r1", user_id: user }));
    keyed.info("before auth");
    user = 7;
    keyed.error("after auth", { request_id: "own", extra: true });
    keyed.debug("d");
    keyed.warn("w", { n: 1 });
    expect(records).toEqual([
      ["info", "before auth", { request_id: "r1" }],
      ["error", "after auth", { request_id: "own", user_id: 7, extra: true }],
      ["debug", "d", { request_id: "r1", user_id: 7 }],
      ["warn", "w", { request_id: "r1", user_id: 7, n: 1 }],
    ]);
  });
});

describe("createLogger", () => {
  it("drops records below its level and writes nothing when silent", () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true));
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true));
    try {
      const warnOnly = createLogger("warn");
      warnOnly.info("dropped");
      warnOnly.debug("dropped");
      warnOnly.warn("kept", { k: "v" });
      createLogger("silent").error("dropped");
    } finally {
      vi.restoreAllMocks();
    }
    expect(writes.map((w) => JSON.parse(w) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: "WARN", message: "kept", k: "v" }),
    ]);
  });
});
