import type { Group } from "../shared/routes.js";
import type { EndpointMap } from "../shared/http/context.js";
import * as unauthenticated from "./lambdas/unauthenticated.js";
import * as users from "./lambdas/users.js";
import * as streams from "./lambdas/streams.js";
import * as messages from "./lambdas/messages.js";
import * as events from "./lambdas/events.js";
import * as presence from "./lambdas/presence.js";
import * as realm from "./lambdas/realm.js";
import * as webhooks from "./lambdas/webhooks.js";
import * as files from "./lambdas/files.js";
import * as fallback from "./fallback/index.js";

/**
 * Every group's Lambda handler and endpoint map, for the local server and
 * the route-coverage test: the same entries (`functions/lambdas/<group>.ts`,
 * generated from the route table) that are bundled one per Lambda on AWS.
 * This module is not part of any Lambda bundle.
 */
export const GROUP_MODULES: Record<Group, { handler: LambdaHandler; endpoints: EndpointMap }> = {
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

/** The handler behind API Gateway's `$default` route (404/405). */
export const FALLBACK_HANDLER: LambdaHandler = fallback.handler;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LambdaHandler = (event: any, context: any) => Promise<any>;
