import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";

/**
 * API Gateway's `$default` route: requests no route-table entry matches.
 * The shared chain answers 404 `Not Found` or 405 with `allowed_methods`
 * (the api-context middleware matches the path against the route table).
 */
export const endpoints = {};

/** The fallback Lambda's handler, with its dependencies built once per cold start. */
export const handler = groupHandler(endpoints, createDeps());
