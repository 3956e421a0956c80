import type { Deps } from "../deps.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import type { Route } from "../routing.js";
import type { RawParams } from "./raw-params.js";
import type { BinaryResult, RedirectResult, WithCookies } from "./response.js";

/**
 * What an endpoint receives: the matched route, the raw parameters (typed
 * with `parseParams`), path parameters, the realm of the request's host and,
 * on authenticated routes, the caller. `D` is the group's dependencies
 * (`FilesDeps` for endpoints that read or write files).
 */
export interface ApiContext<D extends Deps = Deps> {
  deps: D;
  route: Route;
  params: RawParams;
  pathParams: Record<string, string>;
  /** Lower-cased Host header (with port), e.g. `acme.chat.example.com`. */
  host: string;
  /** Subdomain of the host below the configured root domain; `""` for the default organization. */
  subdomain: string;
  /** Name of the calling client (Zulip's `client`), from the `client` parameter or the User-Agent. */
  clientName: string;
  /** The query string's parameters alone (webhook integrations read their options there). */
  query: RawParams;
  /** Raw request body for endpoints that read it themselves (webhooks). */
  body: Buffer | undefined;
  headers: Record<string, string | undefined>;
  /** The request's cookies, `name=value` each, as API Gateway's payload 2.0 gives them (`event.cookies`). */
  cookies: readonly string[];
  /** The client's IP address as API Gateway saw it (the per-address limits count by it). */
  sourceIp: string;
  requestId: string;
  /** The request's organization; on `auth: "none"` routes null when the host names none. */
  realm: RealmRecord | null;
  /** The authenticated caller; null on `auth: "none"` routes. */
  user: UserRecord | null;
  /**
   * Milliseconds left before the Lambda (or, locally, the API Gateway
   * budget the adapter imitates) times out; long polls stop before it.
   */
  remainingTimeMs(): number;
}

/** Context of an authenticated route: realm and user are always present. */
export interface AuthedContext<D extends Deps = Deps> extends ApiContext<D> {
  realm: RealmRecord;
  user: UserRecord;
}

/** Fields an endpoint returns next to `result` and `msg`, a redirect instead of the envelope, or fields with cookies. */
export type EndpointResult = Record<string, unknown> | void | RedirectResult | WithCookies | BinaryResult;

export type Endpoint<D extends Deps = Deps> = (ctx: AuthedContext<D>) => Promise<EndpointResult>;
export type PublicEndpoint<D extends Deps = Deps> = (ctx: ApiContext<D>) => Promise<EndpointResult>;

/** A group's endpoints by the names the route table gives them, over the group's dependencies `D`. */
export type EndpointMap<D extends Deps = Deps> = Record<string, Endpoint<D> | PublicEndpoint<D>>;
