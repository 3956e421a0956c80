import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { toApiGatewayEvent } from "../../infra/local/adapter.js";
import { loadConfig } from "../../shared/config.js";
import { createDeps, type Deps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { siteHandler } from "../../shared/http/site-handler.js";
import { createLogger } from "../../shared/logger.js";
import { byRouteKeyOrPath } from "../../shared/route-match.js";
import { matchRequestPath, ROUTES } from "../../shared/routes.js";
import { byRouteKey } from "../../shared/routing.js";
import { siteFilesFromDirectory } from "../../shared/storage/site-files.js";
import { makeWebDist, TEST_WEB_FILES } from "../../test/support/web-dist.js";
import { endpoints, routes } from "../lambdas/web.js";
import { isAccountPage } from "./account-page.js";
import { WEB_APP_CSP } from "./web-app.js";

const dir = makeWebDist();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The `web` group's handler in-process behind the local adapter; other paths go to the `$default` fallback, as on AWS. */
function call(method: string, url: string) {
  const handler = siteHandler(endpoints, { log: createLogger("silent"), site: siteFilesFromDirectory(dir) }, byRouteKey(routes));
  const config = loadConfig({ TABLE_NAME: "t", ROOT_DOMAIN: "127.0.0.1", RATE_LIMITS: "off", LOG_LEVEL: "silent" });
  const deps = createDeps(config, { db: { send: async () => ({}) } as unknown as Deps["db"], log: createLogger("silent") });
  const fallback = groupHandler({}, deps, byRouteKeyOrPath(ROUTES));
  const { event, group } = toApiGatewayEvent({ method, url, headers: { host: "127.0.0.1" } }, Buffer.alloc(0));
  return (group === "web" ? handler : fallback)(event, { awsRequestId: "r1" } as never);
}

const KEY = "abcdefghijklmnopqrstuvwx";

describe("the web app's page at the account links", () => {
  it.each([
    `/join/${KEY}/`,
    `/join/${KEY}`,
    `/accounts/do_confirm/${KEY}`,
    "/accounts/password/reset/",
    `/accounts/password/reset/${KEY}/`,
    `/accounts/confirm_new_email/${KEY}/`,
    "/register/",
    "/register",
  ])("serves the page at %s, with the page's policy", async (path) => {
    // Act
    const res = await call("GET", path);
    // Assess
    expect(res.statusCode).toBe(200);
    expect(Buffer.from(res.body!, "base64").toString("utf8")).toBe(TEST_WEB_FILES["index.html"]);
    expect(res.headers!["content-security-policy"]).toBe(WEB_APP_CSP);
    expect(res.headers!["cache-control"]).toBe("no-cache");
  });

  it.each(["/accounts/other/", "/accounts/password/", `/accounts/do_confirm/${KEY}/more`, "/accounts/do_confirm/", "/join/"])(
    "answers 404 at %s",
    async (path) => {
      const res = await call("GET", path);
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body!)).toMatchObject({ result: "error", msg: "Not Found" });
    },
  );

  it("keeps the login form's POST at /accounts/login apart from the pages' GET", () => {
    expect(matchRequestPath("POST", "/accounts/login")).toMatchObject({ kind: "found", route: { endpoint: "webLogin" } });
    expect(matchRequestPath("GET", "/accounts/password/reset/")).toMatchObject({
      kind: "found",
      route: { endpoint: "getAccountPage", group: "web" },
      pathParameters: { page: "password/reset" },
    });
    expect(isAccountPage("password/reset/")).toBe(true);
    expect(isAccountPage("login")).toBe(false);
  });
});
