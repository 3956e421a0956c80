import { jsonPayload, type Payload, WebhookPayloadError } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/**
 * Statuspage notifications (Zulip's `api_statuspage_webhook`,
 * https://zulip.com/integrations/doc/statuspage). A payload carrying an
 * `incident` is event type `incident` (its name, state and latest update),
 * one carrying a `component` is `component` (its status change); anything
 * else is unsupported as `unknown-event`. The topic is
 * `<incident or component name>: <page status description>`. Throws
 * WebhookPayloadError when a field the message needs is missing.
 */
export const statuspageIntegration: Integration = {
  name: "statuspage",
  displayName: "Statuspage",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    if (payload.opt("incident").exists()) {
      const incident = payload.get("incident");
      const name = incident.get("name").str();
      // Statuspage lists an incident's updates newest first.
      const latest = incident.get("incident_updates").list()[0];
      if (latest === undefined) throw new WebhookPayloadError('payload["incident"]["incident_updates"][0] is missing');
      const content = `**${name}**\n* State: **${incident.get("status").str()}**\n* Update: ${latest.get("body").str()}`;
      return { kind: "messages", eventType: "incident", messages: [{ topic: statuspageTopic(payload, name), content }] };
    }
    if (payload.opt("component").exists()) {
      const name = payload.get("component").get("name").str();
      const update = payload.get("component_update");
      const content =
        `**${name}** changed status from **${update.get("old_status").str()}** ` +
        `to **${update.get("new_status").str()}**.`;
      return { kind: "messages", eventType: "component", messages: [{ topic: statuspageTopic(payload, name), content }] };
    }
    return { kind: "unsupported", eventType: "unknown-event" };
  },
};

/** `<name>: <the page's overall status>`, Zulip's topic for both event types. */
function statuspageTopic(payload: Payload, name: string): string {
  return `${name}: ${payload.get("page").get("status_description").str()}`;
}
