import { describe, expect, it } from "vitest";
import { GROUP_MODULES } from "../functions/handlers.js";
import { API_PREFIX, GROUPS, JSON_PREFIX, matchRequestPath, matchRoute, ROUTES, routeKey } from "../shared/routes.js";

describe("route table", () => {
  it("has an endpoint in its group for every route", () => {
    const missing = ROUTES.filter((r) => !(r.endpoint in GROUP_MODULES[r.group].endpoints)).map(routeKey);
    expect(missing).toEqual([]);
  });

  it("has a module for every group", () => {
    expect(Object.keys(GROUP_MODULES).sort()).toEqual([...GROUPS].sort());
  });

  it("has no duplicate method and path", () => {
    const keys = ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("prefers literal segments over parameters, as API Gateway does", () => {
    const me = matchRoute("GET", "/users/me");
    expect(me.kind === "found" && me.route.endpoint).toBe("getOwnUser");
    const other = matchRoute("GET", "/users/42");
    expect(other).toMatchObject({ kind: "found", pathParameters: { user_id: "42" } });
  });

  it("reports the allowed methods of a known path", () => {
    expect(matchRoute("PUT", "/server_settings")).toEqual({ kind: "wrongMethod", allowed: ["GET"] });
    expect(matchRoute("GET", "/nothing/here")).toEqual({ kind: "notFound" });
  });

  it("matches a greedy last parameter across slashes, and site-root routes apart from API ones", () => {
    const api = matchRequestPath("GET", "/api/v1/user_uploads/2/ab/c%20d/e.txt");
    expect(api).toMatchObject({ kind: "found", route: { endpoint: "getFileTemporaryUrl" }, pathParameters: { realm_id_str: "2", filename: "ab/c d/e.txt" } });
    const root = matchRequestPath("GET", "/user_uploads/2/ab/cd/e.txt");
    expect(root).toMatchObject({ kind: "found", route: { endpoint: "serveUploadedFile", prefix: "" } });
    const temporary = matchRequestPath("GET", "/user_uploads/temporary/ABC/e.txt");
    expect(temporary).toMatchObject({ kind: "found", route: { endpoint: "serveFileFromToken" }, pathParameters: { token: "ABC" } });
    expect(matchRequestPath("GET", "/user_uploads/2/ab//e.txt")).toEqual({ kind: "notFound" });
    expect(matchRequestPath("GET", "/users/me")).toEqual({ kind: "notFound" });
  });

  it("serves every API route that needs a user under /json too: same endpoint and group, session authentication", () => {
    const needUser = ROUTES.filter((r) => r.prefix === API_PREFIX && (r.auth === "api" || r.auth === "optional"));
    const json = ROUTES.filter((r) => r.prefix === JSON_PREFIX);
    expect(json.map((r) => `${r.method} ${r.path} ${r.group} ${r.endpoint}`)).toEqual(
      needUser.map((r) => `${r.method} ${r.path} ${r.group} ${r.endpoint}`),
    );
    expect(new Set(json.map((r) => r.auth))).toEqual(new Set(["session"]));
    expect(json.length).toBeGreaterThan(90);
    const me = matchRequestPath("GET", "/json/users/me");
    expect(me).toMatchObject({ kind: "found", route: { endpoint: "getOwnUser", prefix: JSON_PREFIX, auth: "session" } });
    expect(matchRequestPath("POST", "/json/fetch_api_key")).toEqual({ kind: "notFound" });
    expect(matchRequestPath("POST", "/json/external/github")).toEqual({ kind: "notFound" });
  });

  it("serves the login form's endpoints at the site root without credentials", () => {
    for (const [path, endpoint] of [["/accounts/login", "webLogin"], ["/accounts/logout", "webLogout"]]) {
      expect(matchRequestPath("POST", path)).toMatchObject({
        kind: "found",
        route: { endpoint, prefix: "", group: "unauthenticated", auth: "none" },
      });
    }
  });

  it("stays under API Gateway's default quota of 300 routes per HTTP API, $default included", () => {
    // https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html ("Routes per API": 300, adjustable).
    expect(ROUTES.length + 1).toBeLessThanOrEqual(300);
  });
});
