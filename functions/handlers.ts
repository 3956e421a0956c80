import type { Group } from "../shared/routes.js";
import type { EndpointMap } from "../shared/http/context.js";
import * as unauthenticated from "./unauthenticated/index.js";
import * as users from "./users/index.js";
import * as streams from "./streams/index.js";
import * as messages from "./messages/index.js";
import * as events from "./events/index.js";
import * as presence from "./presence/index.js";
import * as realm from "./realm/index.js";
import * as webhooks from "./webhooks/index.js";
import * as files from "./files/index.js";
import * as fallback from "./fallback/index.js";

/**
 * Every group's Lambda handler and endpoint map, for the local server and
 * the route-coverage test. On AWS each group's `index.ts` is bundled on its
 * own; this module is not part of any Lambda bundle.
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
