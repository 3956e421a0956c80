/**
 * What a route is, without the route table: its shape, API Gateway's key for
 * it, the rules that depend on a route's own fields, and the route finder a
 * handler is given. Every Lambda bundle holds this module; the table itself
 * (`shared/routes.ts`, 200-odd routes) only the `$default` fallback's and
 * the local server do. A group's Lambda is given its own routes, generated
 * into its entry (`functions/lambdas/<group>.ts`) from the table.
 */

/**
 * One Lambda per group. A group is a bundling choice: its entry
 * (`functions/lambdas/<group>.ts`) is generated from the route table,
 * whatever `functions/<domain>/` folders its endpoints live in.
 */
export const GROUPS = [
  "unauthenticated",
  "users",
  "streams",
  "messages",
  "events",
  "presence",
  "realm",
  "webhooks",
  "files",
  "web",
] as const;
export type Group = (typeof GROUPS)[number];

export type HttpMethod = "GET" | "HEAD" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * How a route authenticates: `api` is HTTP Basic with email and API key
 * (https://zulip.com/api/http-headers#authentication); `none` needs no credentials;
 * `webhook` is the incoming-webhook form: the `api_key` parameter, or HTTP Basic
 * for senders that can only do that (https://zulip.com/api/incoming-webhooks-overview);
 * `optional` is `api` when the request carries credentials and a spectator
 * (logged-out visitor, no user) otherwise: Zulip's `allow_anonymous_user_web`
 * for the file links of web-public streams. `session` is the web app's:
 * the `sessionid` cookie of `POST /accounts/login` and the `X-CSRFToken`
 * header equal to the session's token (Zulip's `authenticated_json_view`),
 * on the `/json` copies of the API routes ({@link JSON_PREFIX}).
 *
 * Site-root routes with `api` or `optional` (the file and avatar links that
 * `<img>` tags load) also take the session cookie when no `Authorization`
 * header is sent, without the CSRF header: they are all `GET`, which
 * changes nothing, and a browser sends an image request the cookie alone.
 */
export type AuthMode = "api" | "none" | "webhook" | "optional" | "session";

export interface Route {
  method: HttpMethod;
  /**
   * Path below {@link Route.prefix}, e.g. `/users/{user_id}`. A last
   * segment `{name+}` is greedy (API Gateway's syntax): it takes the rest of
   * the path, slashes included, as the parameter `name`.
   */
  path: string;
  /**
   * {@link API_PREFIX} for API routes; {@link JSON_PREFIX} for their web-app
   * copies; `""` for the few Zulip serves at the site root (`/user_uploads/...`,
   * the links messages carry, and the login form's `/accounts/...`).
   */
  prefix: string;
  group: Group;
  /** Name of the endpoint function: exported by one module of `functions/<domain>/`, and a key of the group's `endpoints` map. */
  endpoint: string;
  auth: AuthMode;
  /**
   * Served below {@link API_PREFIX} only, without a `/json` copy: endpoints
   * only the mobile apps call with their API key (push device registration),
   * which Zulip's web app never does. Keeps the route count within API
   * Gateway's quota.
   */
  apiOnly?: boolean;
}

export const API_PREFIX = "/api/v1";
/** Where Zulip's web app calls the same endpoints with its session cookie (`/json/users/me`). */
export const JSON_PREFIX = "/json";

/**
 * `routes` followed by the web app's copy of each API route among them that
 * needs a user (`api`, and `optional`): the same method, path, group and
 * endpoint below {@link JSON_PREFIX}, authenticated by the session cookie
 * (Zulip's `/json/...` URLs, the same views as `/api/v1/...`). Derived, so
 * the CDK stack, the local server and each group's Lambda get both from the
 * one table.
 * @returns a new array: `routes` in their order, then the copies in the same order
 */
export function withJsonCopies(routes: readonly Route[]): Route[] {
  const copies = routes
    .filter((route) => route.prefix === API_PREFIX && !route.apiOnly && (route.auth === "api" || route.auth === "optional"))
    .map((route): Route => ({ ...route, prefix: JSON_PREFIX, auth: "session" }));
  return [...routes, ...copies];
}

/**
 * Whether a route takes the session cookie: the `/json` copies (with the
 * CSRF header), and the site-root `api` and `optional` routes (without it;
 * see {@link AuthMode}).
 */
export function acceptsSessionCookie(route: Route): boolean {
  return route.auth === "session" || (route.prefix === "" && (route.auth === "api" || route.auth === "optional"));
}

/**
 * The API endpoints an incoming-webhook bot may call besides the webhook
 * routes (Zulip's `allow_incoming_webhooks` route tag): sending messages.
 */
export const INCOMING_WEBHOOK_BOT_ENDPOINTS: ReadonlySet<string> = new Set(["sendMessage"]);

/** API Gateway's route key for a route, e.g. `GET /api/v1/users/{user_id}`. */
export function routeKey(route: Route): string {
  return `${route.method} ${route.prefix}${route.path}`;
}

export type RouteMatch =
  | { kind: "found"; route: Route; pathParameters: Record<string, string> }
  | { kind: "wrongMethod"; allowed: HttpMethod[] }
  | { kind: "notFound" };

/** What a {@link RouteFinder} reads of an API Gateway payload-2.0 event. */
export interface RoutedRequest {
  /** API Gateway's route key (`GET /api/v1/users/{user_id}`), or `$default` when no route matched. */
  routeKey: string;
  method: string;
  /** The path as sent, e.g. `/api/v1/users/12`. */
  rawPath: string;
  /** What API Gateway extracted for the matched route's `{param}`s. */
  pathParameters?: Record<string, string | undefined>;
}

/**
 * How a handler finds the route of a request among the routes it serves:
 * {@link byRouteKey} for a group's Lambda, which API Gateway invokes only
 * for its own routes; `byRouteKeyOrPath` (`shared/route-match.ts`) for the
 * `$default` fallback, which matches the raw path against the whole table
 * to tell 404 from 405.
 */
export type RouteFinder = (request: RoutedRequest) => RouteMatch;

/**
 * A {@link RouteFinder} by API Gateway's route key alone: the route whose
 * {@link routeKey} the event names, with the path parameters API Gateway
 * extracted; anything else (`$default`, another group's key) is `notFound`.
 * @param routes the routes the handler serves (a group's, generated into its Lambda entry)
 */
export function byRouteKey(routes: readonly Route[]): RouteFinder {
  const byKey = new Map(routes.map((route) => [routeKey(route), route]));
  return ({ routeKey: key, pathParameters }) => {
    const route = byKey.get(key);
    return route ? { kind: "found", route, pathParameters: { ...pathParameters } as Record<string, string> } : { kind: "notFound" };
  };
}
