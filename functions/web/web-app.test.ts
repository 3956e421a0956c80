import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toApiGatewayEvent } from "../../infra/local/adapter.js";
import { siteHandler } from "../../shared/http/site-handler.js";
import { createLogger } from "../../shared/logger.js";
import { siteFilesFromDirectory } from "../../shared/storage/site-files.js";
import { makeWebDist, TEST_WEB_FILES } from "../../test/support/web-dist.js";
import { endpoints } from "../lambdas/web.js";
import { WEB_APP_CSP } from "./web-app.js";

/** The `web` group's handler called in-process with the events API Gateway (here the local adapter) builds. */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function handlerOver(dir: string) {
  const handler = siteHandler(endpoints, { log: createLogger("silent"), site: siteFilesFromDirectory(dir) });
  return async (method: string, url: string, headers: Record<string, string> = {}) => {
    const { event } = toApiGatewayEvent({ method, url, headers: { host: "127.0.0.1", ...headers } }, Buffer.alloc(0));
    return handler(event, { awsRequestId: "r1" } as never);
  };
}

describe("web app endpoints", () => {
  it("say how to build the web app at / when it is not built (HTML, not a JSON 404)", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "zs-no-dist-"));
    dirs.push(empty);
    const res = await handlerOver(empty)("GET", "/");
    expect(res.statusCode).toBe(404);
    expect(res.headers!["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers!["cache-control"]).toBe("no-store");
    expect(res.headers!["content-security-policy"]).toBe(WEB_APP_CSP);
    expect(Buffer.from(res.body!, "base64").toString("utf8")).toContain("Run <code>npm run build:web</code>");
  });

  it("answers the page base64-encoded (API Gateway's payload 2.0 for bytes), HEAD without a body", async () => {
    const dir = makeWebDist();
    dirs.push(dir);
    const call = handlerOver(dir);
    const get = await call("GET", "/");
    expect(get.isBase64Encoded).toBe(true);
    expect(Buffer.from(get.body!, "base64").toString("utf8")).toBe(TEST_WEB_FILES["index.html"]);
    const head = await call("HEAD", "/");
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers!.etag).toBe(get.headers!.etag);
  });

  it("serves index.html under /static/app/ with the page's policy, and refuses other methods with 405", async () => {
    const dir = makeWebDist();
    dirs.push(dir);
    const call = handlerOver(dir);
    const page = await call("GET", "/static/app/index.html");
    expect(page.headers!["content-security-policy"]).toBe(WEB_APP_CSP);
    expect(page.headers!["cache-control"]).toBe("no-cache");
    const post = await call("POST", "/static/app/index.html");
    expect(post.statusCode).toBe(405);
    expect(JSON.parse(post.body!)).toMatchObject({ result: "error", msg: "Method Not Allowed", allowed_methods: ["GET", "HEAD"] });
  });
});
