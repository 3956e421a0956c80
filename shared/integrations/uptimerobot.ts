import { jsonPayload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/**
 * UptimeRobot monitor alerts (Zulip's `api_uptimerobot_webhook`,
 * https://zulip.com/integrations/doc/uptimerobot). The alert's
 * `alert_type_friendly_name` ("Up" / "Down") is the event type (`up` /
 * `down`); the topic is the monitor's friendly name. Any other alert type
 * is unsupported. Throws WebhookPayloadError when a field the message
 * needs is missing.
 */
export const uptimerobotIntegration: Integration = {
  name: "uptimerobot",
  displayName: "UptimeRobot",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const alertType = payload.get("alert_type_friendly_name").str();
    const eventType = alertType.toLowerCase();
    if (eventType !== "up" && eventType !== "down") return { kind: "unsupported", eventType };
    const name = payload.get("monitor_friendly_name").str();
    const url = payload.get("monitor_url").str();
    const details = payload.get("alert_details").str();
    const content =
      eventType === "up"
        ? `**${name}** (${url}) is back **up**: ${details}.\nDowntime: ${payload.get("alert_friendly_duration").str()}.`
        : `**${name}** (${url}) is **down**: ${details}.`;
    return { kind: "messages", eventType, messages: [{ topic: name, content }] };
  },
};
