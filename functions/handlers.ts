import type { FilesDeps, SiteDeps } from "../shared/deps.js";
import { GROUPS, type Group } from "../shared/routes.js";
import type { EndpointMap } from "../shared/http/context.js";
import { groupHandler } from "../shared/http/group-handler.js";
import { siteHandler, type SiteEndpointMap } from "../shared/http/site-handler.js";
import * as unauthenticated from "./lambdas/unauthenticated.js";
import * as users from "./lambdas/users.js";
import * as streams from "./lambdas/streams.js";
import * as messages from "./lambdas/messages.js";
import * as events from "./lambdas/events.js";
import * as presence from "./lambdas/presence.js";
import * as realm from "./lambdas/realm.js";
import * as webhooks from "./lambdas/webhooks.js";
import * as files from "./lambdas/files.js";
import * as web from "./lambdas/web.js";
import * as fallback from "./fallback/index.js";

/**
 * Every group's endpoint map, for the local server and the route-coverage
 * test: the same entries (`functions/lambdas/<group>.ts`, generated from the
 * route table) that are bundled one per Lambda on AWS, each with its handler
 * over the dependencies it builds; this module is not part of any Lambda
 * bundle. The API groups are typed over `FilesDeps`: the local server gives
 * every API group the file store (a group's endpoints that need no files
 * accept it too); the `web` group's endpoints are site endpoints over
 * `SiteDeps` (shared/http/site-handler.ts).
 */
export const API_GROUP_MODULES: Record<ApiGroup, { endpoints: EndpointMap<FilesDeps> }> = {
  unauthenticated,
  users,
  streams,
  messages,
  events,
  presence,
  realm,
  webhooks,
  files,
};

/** The groups served by `groupHandler`: every group but the web app's. */
export type ApiGroup = Exclude<Group, "web">;

/** Every group's endpoint map, the `web` group's included. */
export const GROUP_MODULES: Record<Group, { endpoints: EndpointMap<FilesDeps> | SiteEndpointMap }> = { ...API_GROUP_MODULES, web };

/** The handler of a route's group; `undefined` (no route matched) gives the `$default` fallback's (404/405). */
export type GroupHandlers = (group: Group | undefined) => LambdaHandler;

/**
 * Every group's handler, and the `$default` fallback's, built once over one
 * set of dependencies: the local stack serves all groups in one process,
 * with the same middy chains the Lambdas run.
 * @param deps the API groups' and the fallback's dependencies
 * @param site the `web` group's (its logger and the built web app's files)
 */
export function groupHandlers(deps: FilesDeps, site: SiteDeps): GroupHandlers {
  const built = new Map<Group, LambdaHandler>(
    GROUPS.map((g) => [g, g === "web" ? siteHandler(web.endpoints, site) : groupHandler(API_GROUP_MODULES[g].endpoints, deps)]),
  );
  const fallbackHandler = groupHandler(fallback.endpoints, deps);
  return (group) => (group && built.get(group)) || fallbackHandler;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LambdaHandler = (event: any, context: any) => Promise<any>;
