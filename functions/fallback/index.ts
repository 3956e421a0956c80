import { groupHandler } from "../../shared/http/group-handler.js";

/**
 * API Gateway's `$default` route: requests no route-table entry matches.
 * The shared chain answers 404 `Not Found` or 405 with `allowed_methods`
 * (the api-context middleware matches the path against the route table).
 */
export const handler = groupHandler({});
