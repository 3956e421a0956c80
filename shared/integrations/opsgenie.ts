import { jsonPayload } from "./payload.js";
import { singleMessage } from "./format.js";
import type { Integration } from "./types.js";

/** Alert fields that some actions carry, in the order they are listed, with their labels. */
const ALERT_DETAILS: readonly [string, string][] = [
  ["note", "Note"],
  ["recipient", "Recipient"],
  ["addedTags", "Tags added"],
  ["team", "Team added"],
  ["owner", "Owner"],
];

/**
 * Opsgenie alert actions (https://zulip.com/integrations/doc/opsgenie;
 * Zulip's `api_opsgenie_webhook`). Every action (`Create`, `Acknowledge`,
 * `AddNote`, `Close`, `Escalate`, ...) is reported; the event type is the
 * `action` itself, and the topic the Opsgenie integration's name. The
 * message links the alert and lists what the action carries (note,
 * recipient, tags added or removed, team, owner, escalation), the alert
 * message and its tags.
 */
export const opsgenieIntegration: Integration = {
  name: "opsgenie",
  displayName: "Opsgenie",
  handle(request) {
    const payload = jsonPayload(request);
    const action = payload.get("action").str();
    const alert = payload.get("alert");
    const alertId = alert.get("alertId").str();
    const integration = payload.get("integrationName").str();
    const items = [`* **Action**: ${action}`];
    for (const [key, label] of ALERT_DETAILS) {
      if (alert.opt(key).exists()) items.push(`* **${label}**: ${alert.get(key).str()}`);
    }
    if (payload.opt("escalationName").exists()) items.push(`* **Escalation**: ${payload.get("escalationName").str()}`);
    if (alert.opt("removedTags").exists()) items.push(`* **Tags removed**: ${alert.get("removedTags").str()}`);
    if (alert.opt("message").exists()) items.push(`* **Message**: ${alert.get("message").str()}`);
    const tags = alert.opt("tags").exists() ? alert.get("tags").list().map((t) => `\`${t.str()}\``) : [];
    if (tags.length > 0) items.push(`* **Tags**: ${tags.join(", ")}`);
    const link = `[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/${alertId}) from ${integration}:`;
    return singleMessage(action, integration, [link, ...items].join("\n"));
  },
};
