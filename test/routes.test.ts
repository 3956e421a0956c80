import { describe, expect, it } from "vitest";
import { GROUP_MODULES } from "../functions/handlers.js";
import { byRouteKeyOrPath } from "../shared/route-match.js";
import { API_PREFIX, GROUPS, groupRoutes, JSON_PREFIX, matchRequestPath, matchRoute, ROUTES, routeKey } from "../shared/routes.js";
import { byRouteKey, type RoutedRequest } from "../shared/routing.js";

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
    // API-only routes (the mobile apps' push device endpoints) have no copy.
    const needUser = ROUTES.filter((r) => r.prefix === API_PREFIX && !r.apiOnly && (r.auth === "api" || r.auth === "optional"));
    // The web app's own `/json/fetch_api_key` (a signed-in person's key, after their password) is no copy,
    // nor are the signed-out account pages' endpoints (auth `none`).
    const json = ROUTES.filter((r) => r.prefix === JSON_PREFIX && r.endpoint !== "jsonFetchApiKey" && r.auth !== "none");
    expect(json.map((r) => `${r.method} ${r.path} ${r.group} ${r.endpoint}`)).toEqual(
      needUser.map((r) => `${r.method} ${r.path} ${r.group} ${r.endpoint}`),
    );
    expect(new Set(json.map((r) => r.auth))).toEqual(new Set(["session"]));
    expect(matchRequestPath("POST", "/json/signup")).toMatchObject({ kind: "found", route: { endpoint: "signup", auth: "none" } });
    expect(json.length).toBeGreaterThan(90);
    const me = matchRequestPath("GET", "/json/users/me");
    expect(me).toMatchObject({ kind: "found", route: { endpoint: "getOwnUser", prefix: JSON_PREFIX, auth: "session" } });
    expect(matchRequestPath("POST", "/json/fetch_api_key")).toMatchObject({
      kind: "found",
      route: { endpoint: "jsonFetchApiKey", group: "users", auth: "session" },
    });
    expect(matchRequestPath("POST", "/json/external/github")).toEqual({ kind: "notFound" });
  });

  it("serves the mobile push device endpoints below /api/v1 only, in the presence Lambda", () => {
    const push = [
      ["POST", "/users/me/apns_device_token", "addApnsDeviceToken"],
      ["DELETE", "/users/me/apns_device_token", "removeApnsDeviceToken"],
      ["POST", "/users/me/android_gcm_reg_id", "addAndroidRegId"],
      ["DELETE", "/users/me/android_gcm_reg_id", "removeAndroidRegId"],
      ["POST", "/mobile_push/test_notification", "sendTestPushNotification"],
    ] as const;
    for (const [method, path, endpoint] of push) {
      expect(matchRoute(method, path)).toMatchObject({ kind: "found", route: { endpoint, group: "presence", auth: "api", apiOnly: true } });
      expect(matchRequestPath(method, `${JSON_PREFIX}${path}`)).toEqual({ kind: "notFound" });
    }
    const presenceJson = groupRoutes("presence").filter((r) => r.prefix === JSON_PREFIX).map((r) => r.endpoint);
    expect(presenceJson.sort()).toEqual(["getRealmPresence", "getUserPresence", "setTypingStatus", "updatePresence"]);
  });

  it("serves the password reset and email change pages' endpoints below /json without credentials", () => {
    for (const [method, path, endpoint] of [
      ["POST", "/json/accounts/password/reset", "requestPasswordReset"],
      ["GET", "/json/accounts/password/reset/abc", "getPasswordReset"],
      ["POST", "/json/accounts/password/reset/abc", "resetPassword"],
      ["POST", "/json/accounts/confirm_new_email/abc", "confirmEmailChange"],
    ] as const) {
      expect(matchRequestPath(method, path)).toMatchObject({
        kind: "found",
        route: { endpoint, prefix: JSON_PREFIX, group: "unauthenticated", auth: "none" },
      });
    }
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

describe("route finders", () => {
  /** An event's routing fields as API Gateway sends them: the route key of a matched route, or `$default`. */
  const request = (routeKey: string, method: string, rawPath: string, pathParameters?: Record<string, string>): RoutedRequest => ({
    routeKey,
    method,
    rawPath,
    pathParameters,
  });

  describe("byRouteKey", () => {
    it("finds a route of its own by the route key, with the path parameters API Gateway extracted", () => {
      // Prepare
      const find = byRouteKey(groupRoutes("messages"));
      // Act
      const found = find(request("PATCH /json/messages/{message_id}", "PATCH", "/json/messages/12", { message_id: "12" }));
      // Assess
      expect(found).toEqual({
        kind: "found",
        route: { method: "PATCH", path: "/messages/{message_id}", prefix: JSON_PREFIX, group: "messages", endpoint: "updateMessage", auth: "session" },
        pathParameters: { message_id: "12" },
      });
    });

    it("finds nothing for another group's route key or `$default`, whatever the path: it matches no path", () => {
      const find = byRouteKey(groupRoutes("messages"));
      expect(find(request("GET /api/v1/users/me", "GET", "/api/v1/users/me"))).toEqual({ kind: "notFound" });
      expect(find(request("$default", "GET", "/api/v1/messages"))).toEqual({ kind: "notFound" });
      expect(find(request("$default", "PUT", "/api/v1/messages"))).toEqual({ kind: "notFound" });
    });
  });

  describe("byRouteKeyOrPath (the fallback's, over the whole table)", () => {
    it("matches the path behind `$default`: 405 with the allowed methods, 404 for an unknown path", () => {
      const find = byRouteKeyOrPath(ROUTES);
      expect(find(request("$default", "PUT", "/api/v1/messages"))).toEqual({ kind: "wrongMethod", allowed: ["POST", "GET"] });
      expect(find(request("$default", "PUT", "/json/server_settings"))).toEqual({ kind: "notFound" });
      expect(find(request("$default", "PUT", "/json/typing"))).toEqual({ kind: "wrongMethod", allowed: ["POST"] });
      expect(find(request("$default", "GET", "/api/v1/nothing/here"))).toEqual({ kind: "notFound" });
    });

    it("takes the route a route key names before any path matching", () => {
      const find = byRouteKeyOrPath(ROUTES);
      const found = find(request("GET /api/v1/users/{user_id}", "GET", "/api/v1/users/me", { user_id: "me" }));
      expect(found).toMatchObject({ kind: "found", route: { endpoint: "getUser" }, pathParameters: { user_id: "me" } });
    });
  });
});
