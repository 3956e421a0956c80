import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { manyMessages } from "./format.js";
import type { Integration, WebhookMessage } from "./types.js";

/** A label's value, or else the annotation of that name, or undefined. */
function labelOrAnnotation(alert: Payload, field: string): string | undefined {
  for (const source of ["labels", "annotations"]) {
    const group = alert.opt(source);
    if (group.exists() && group.opt(field).exists()) return group.get(field).str();
  }
  return undefined;
}

/**
 * Prometheus Alertmanager's webhook receiver
 * (https://zulip.com/integrations/doc/alertmanager; Zulip's
 * `api_alertmanager_webhook`). Alerts are grouped by the label (or
 * annotation) named by the `name` query parameter (default `instance`),
 * which is the topic; each topic gets one message per status (firing,
 * resolved) listing the alerts by the `desc` field (default `alertname`),
 * each with a link to its graph. No event type.
 */
export const alertmanagerIntegration: Integration = {
  name: "alertmanager",
  displayName: "Alertmanager",
  handle(request) {
    const payload = jsonPayload(request);
    const nameField = request.query.name ?? "instance";
    const descField = request.query.desc ?? "alertname";
    const byTopic = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const alert of payload.get("alerts").list()) {
      const name = labelOrAnnotation(alert, nameField) ?? "(unknown)";
      const desc = labelOrAnnotation(alert, descField) ?? `(no ${descField} field)`;
      // Alertmanager links the graph in its table tab; the graph tab is what a reader wants.
      const url = alert.get("generatorURL").str().replace("tab=1", "tab=0");
      const status = alert.get("status").str();
      if (status !== "firing" && status !== "resolved") {
        throw new WebhookPayloadError(`${alert.get("status").path} is not "firing" or "resolved"`);
      }
      const entry = byTopic.get(name) ?? { firing: [], resolved: [] };
      byTopic.set(name, entry);
      entry[status].push(`${desc} ([graph](${url}))`);
    }
    const messages: WebhookMessage[] = [];
    for (const [topic, statuses] of byTopic) {
      for (const status of ["firing", "resolved"] as const) {
        const lines = statuses[status];
        if (lines.length === 0) continue;
        const heading = status === "firing" ? ":alert: **Firing**" : ":squared_ok: **Resolved**";
        const content = lines.length === 1 ? `${heading}: ${lines[0]}` : `${heading}:\n${lines.map((l) => `* ${l}`).join("\n")}`;
        messages.push({ topic, content });
      }
    }
    return manyMessages(null, messages);
  },
};
