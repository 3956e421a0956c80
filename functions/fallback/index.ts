import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { byRouteKeyOrPath } from "../../shared/route-match.js";
import { ROUTES } from "../../shared/routes.js";

/**
 * API Gateway's `$default` route: requests no route-table entry matches.
 * The shared chain answers 404 `Not Found` or 405 with `allowed_methods`:
 * the only Lambda that holds the whole route table, to match the path
 * against it (a group's Lambda knows its own routes alone).
 */
export const endpoints = {};

/** The fallback Lambda's handler, with its dependencies built once per cold start. */
export const handler = groupHandler(endpoints, createDeps(), byRouteKeyOrPath(ROUTES));
