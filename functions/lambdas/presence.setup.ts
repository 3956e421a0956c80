import { loadConfig } from "../../shared/config.js";
import { createDeps, type Deps } from "../../shared/deps.js";
import { pushBouncerFromConfig } from "../../shared/push/http-bouncer.js";

/**
 * The `presence` group's dependencies: `Deps` plus the push notification
 * service's client when push notifications are configured. Mobile device
 * registration (`functions/mobile-push/`) calls the service in the request,
 * as Zulip does; no other API group builds the client.
 * @returns built once per cold start by the generated `functions/lambdas/presence.ts`
 */
export function groupDeps(): Deps {
  const config = loadConfig();
  return { ...createDeps(config), pushBouncer: pushBouncerFromConfig(config) };
}
