import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { singleMessage } from "./format.js";
import type { Integration } from "./types.js";

/** A TeamCity property's value by name, from the `teamcityProperties` list. */
function property(properties: Payload, name: string): string | null {
  if (!properties.exists()) return null;
  const found = properties.list().find((p) => p.get("name").str() === name);
  return found === undefined ? null : found.get("value").str();
}

/**
 * TeamCity build notifications from the tcWebHooks plugin in its "Legacy
 * Webhook (JSON)" format (https://zulip.com/integrations/doc/teamcity;
 * Zulip's `api_teamcity_webhook`). Topic: the build's full name, with the
 * branch in parentheses when there is one. The message says whether the
 * build started, succeeded, was fixed, broke or is still broken (with its
 * status), linking its changes and log. Payloads in other formats (no
 * `build`) and personal builds (which Zulip sends privately to the matching
 * user, something an integration has no user directory for) are ignored.
 * No event type.
 */
export const teamcityIntegration: Integration = {
  name: "teamcity",
  displayName: "TeamCity",
  handle(request) {
    const payload = jsonPayload(request);
    if (!payload.opt("build").exists()) return { kind: "ignored", eventType: null };
    const build = payload.get("build");
    if (property(build.opt("teamcityProperties"), "env.BUILD_IS_PERSONAL") === "true") {
      return { kind: "ignored", eventType: null };
    }
    const name = build.get("buildFullName").str();
    const logUrl = build.get("buildStatusUrl").str();
    const number = build.get("buildNumber").str();
    const result = build.get("buildResult").str();
    const delta = build.get("buildResultDelta").str();
    const status = build.get("buildStatus").str();
    let outcome: string;
    if (result === "success") outcome = delta === "fixed" ? "was fixed :thumbs_up:" : "succeeded :thumbs_up:";
    else if (result === "failure") {
      outcome = `${delta === "broken" ? "broke" : "is still broken"} (status: ${status}) :thumbs_down:`;
    } else if (result === "running") outcome = "started";
    else throw new WebhookPayloadError(`${build.get("buildResult").path} is not success, failure or running`);
    const content = `${name} build ${number} ${outcome}. [Changes](${logUrl}&tab=buildChangesDiv) · [Build log](${logUrl})`;
    const branch = build.opt("branchDisplayName");
    const topic = branch.exists() ? `${name} (${branch.str()})` : name;
    return singleMessage(null, topic, content);
  },
};
