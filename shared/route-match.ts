import { API_PREFIX, byRouteKey, JSON_PREFIX, type Route, type RouteFinder, type RouteMatch } from "./routing.js";

/**
 * Matches a method and a raw path against `routes` the way API Gateway
 * does: the most specific pattern wins (`/users/me` before
 * `/users/{user_id}`); below {@link API_PREFIX} against the API routes,
 * below {@link JSON_PREFIX} against their web-app copies, elsewhere against
 * the site-root routes. For the `$default` fallback and the local server,
 * which see requests no route key names.
 * @param routes the routes to match against (the grouping by prefix is done once, here)
 * @returns a function of the method and the path as sent, e.g. `/api/v1/users/12`,
 *   `/json/users/12` or `/user_uploads/2/ab/cd/x.txt`
 */
export function pathMatcher(routes: readonly Route[]): (method: string, rawPath: string) => RouteMatch {
  const api = routes.filter((route) => route.prefix === API_PREFIX);
  const json = routes.filter((route) => route.prefix === JSON_PREFIX);
  const root = routes.filter((route) => route.prefix === "");
  return (method, rawPath) => {
    for (const [prefix, within] of [[API_PREFIX, api], [JSON_PREFIX, json]] as const) {
      if (rawPath.startsWith(`${prefix}/`) || rawPath === prefix) return matchIn(within, method, rawPath.slice(prefix.length));
    }
    return matchIn(root, method, rawPath);
  };
}

/**
 * A {@link RouteFinder} for the `$default` fallback: the route a route key
 * names, else the raw path matched against `routes` ({@link pathMatcher}),
 * so that a known path with a wrong method is a 405 naming the allowed ones.
 * @param routes the whole route table
 */
export function byRouteKeyOrPath(routes: readonly Route[]): RouteFinder {
  const byKey = byRouteKey(routes);
  const byPath = pathMatcher(routes);
  return (request) => {
    const match = byKey(request);
    return match.kind === "found" ? match : byPath(request.method, request.rawPath);
  };
}

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  let got = path.split("/");
  const greedy = want[want.length - 1]!.endsWith("+}");
  if (greedy && got.length > want.length) {
    // The greedy last parameter takes the rest of the path; every segment of it must be non-empty.
    const rest = got.slice(want.length - 1);
    if (rest.some((seg) => seg === "")) return undefined;
    got = [...got.slice(0, want.length - 1), rest.join("/")];
  }
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.endsWith("+}")) {
      if (g === "") return undefined;
      try {
        params[w.slice(1, -2)] = g.split("/").map(decodeURIComponent).join("/");
      } catch {
        return undefined;
      }
    } else if (w.startsWith("{") && w.endsWith("}")) {
      if (g === "") return undefined;
      // A broken percent-escape matches nothing (404), as an unknown path would.
      try {
        params[w.slice(1, -1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) {
      return undefined;
    }
  }
  return params;
}

/** Literal segments outrank parameters, left to right, as in API Gateway. */
function specificity(pattern: string): string {
  return pattern
    .split("/")
    .map((seg) => (seg.startsWith("{") ? "0" : "1"))
    .join("");
}

function matchIn(routes: readonly Route[], method: string, path: string): RouteMatch {
  const normalized = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const candidates = routes.map((route) => ({ route, params: matchPath(route.path, normalized) }))
    .filter((c): c is { route: Route; params: Record<string, string> } => c.params !== undefined)
    .sort((a, b) => specificity(b.route.path).localeCompare(specificity(a.route.path)));
  if (candidates.length === 0) return { kind: "notFound" };
  const best = specificity(candidates[0]!.route.path);
  const samePattern = candidates.filter((c) => specificity(c.route.path) === best);
  const hit = samePattern.find((c) => c.route.method === method.toUpperCase());
  if (hit) return { kind: "found", route: hit.route, pathParameters: hit.params };
  // A less specific pattern may still serve this method (API Gateway falls through).
  const fallback = candidates.find((c) => c.route.method === method.toUpperCase());
  if (fallback) return { kind: "found", route: fallback.route, pathParameters: fallback.params };
  return { kind: "wrongMethod", allowed: [...new Set(candidates.map((c) => c.route.method))] };
}
