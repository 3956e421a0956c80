import { describe, expect, it } from "vitest";
import { GROUP_MODULES } from "../functions/handlers.js";
import { GROUPS, matchRequestPath, matchRoute, ROUTES, routeKey } from "../shared/routes.js";

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
});
