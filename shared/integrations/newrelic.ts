import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { globalTimeFromEpoch, quoteBlock, singleMessage } from "./format.js";
import type { Integration, WebhookResult } from "./types.js";

/** The facts both payload generations carry, under their own names. */
interface Alert {
  state: string;
  incidentId: string;
  policy: string;
  condition: string;
  details: string;
  url: string;
  owner: string;
  /** Milliseconds since the epoch. */
  time: Payload;
}

/** A field that may be a string or a number (New Relic templates send either), as text. */
function text(value: Payload, fallback: string): string {
  if (!value.exists()) return fallback;
  return typeof value.value === "number" ? String(value.value) : value.str();
}

/** A time in milliseconds (a number, or digits in a string). */
function milliseconds(value: Payload): number {
  const ms = typeof value.value === "string" ? Number(value.value) : value.num();
  if (!Number.isFinite(ms)) throw new WebhookPayloadError(`${value.path} is not a time in milliseconds`);
  return ms;
}

/** Alert-policy webhooks (`current_state`: open, acknowledged, closed). */
function fromIncident(payload: Payload): Alert {
  return {
    state: payload.get("current_state").str(),
    incidentId: text(payload.opt("incident_id"), "unknown ID"),
    policy: text(payload.opt("policy_name"), "Unknown policy"),
    condition: text(payload.opt("condition_name"), "Unknown condition"),
    details: text(payload.opt("details"), "No details."),
    url: text(payload.opt("incident_url"), "https://alerts.newrelic.com"),
    owner: text(payload.opt("owner"), ""),
    time: payload.get("timestamp"),
  };
}

/** Workflow (issue) webhooks (`state`: created, activated, acknowledged, closed). */
function fromIssue(payload: Payload): Alert {
  const policies = payload.opt("alertPolicyNames");
  const firstPolicy = policies.exists() ? policies.list()[0] : undefined;
  return {
    state: payload.get("state").str(),
    incidentId: text(payload.opt("id"), "unknown ID"),
    policy: firstPolicy === undefined ? "Unknown policy" : firstPolicy.str(),
    condition: text(payload.opt("condition_name"), "Unknown condition"),
    details: text(payload.opt("details"), "No details."),
    url: text(payload.opt("issueUrl"), "https://alerts.newrelic.com"),
    owner: text(payload.opt("owner"), ""),
    time: payload.get("createdAt"),
  };
}

function render(alert: Alert): WebhookResult {
  const topic = `${alert.policy} (${alert.incidentId})`;
  const incident = `[Incident](${alert.url})`;
  const condition = `for condition **${alert.condition}**`;
  switch (alert.state) {
    case "open":
    case "created":
    case "activated": {
      const verb = alert.state === "open" ? "opened" : alert.state;
      const at = globalTimeFromEpoch(milliseconds(alert.time), "ms");
      return singleMessage(alert.state, topic, `${incident} **${verb}** ${condition} at ${at}\n${quoteBlock(alert.details)}`);
    }
    case "acknowledged": {
      const by = alert.owner !== "" ? ` by **${alert.owner}**` : "";
      return singleMessage(alert.state, topic, `${incident} **acknowledged**${by} ${condition}`);
    }
    case "closed":
      return singleMessage(alert.state, topic, `${incident} **closed** ${condition}`);
    default:
      throw new WebhookPayloadError(`The New Relic state '${alert.state}' is not one of open, created, activated, acknowledged or closed`);
  }
}

/**
 * New Relic alerts (https://zulip.com/integrations/doc/newrelic; Zulip's
 * `api_newrelic_webhook`): alert-policy incidents (`current_state`) and
 * workflow issues (`state`). Topic `<policy> (<incident id>)`; an opened
 * incident quotes its details with the time, an acknowledged one names its
 * owner. The event type is the state. A payload without its time, or with
 * a state New Relic does not document, is refused.
 */
export const newrelicIntegration: Integration = {
  name: "newrelic",
  displayName: "NewRelic",
  handle(request) {
    const payload = jsonPayload(request);
    return render(payload.opt("current_state").exists() ? fromIncident(payload) : fromIssue(payload));
  },
};
