import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { quoteBlock, singleMessage } from "./format.js";
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
  /** Milliseconds since the epoch (a number, or digits in a string); may be absent. */
  time: Payload;
}

/** A field that may be a string or a number (New Relic templates send either), as text. */
function text(value: Payload, fallback: string): string {
  if (!value.exists()) return fallback;
  return typeof value.value === "number" ? String(value.value) : value.str();
}

/** Alert-policy webhooks (`current_state`: open, acknowledged, closed). */
function fromIncident(payload: Payload): Alert {
  return {
    state: text(payload.opt("current_state"), "None"),
    incidentId: text(payload.opt("incident_id"), "Unknown ID"),
    policy: text(payload.opt("policy_name"), "Unknown Policy"),
    condition: text(payload.opt("condition_name"), "Unknown condition"),
    details: text(payload.opt("details"), "No details."),
    url: text(payload.opt("incident_url"), "https://alerts.newrelic.com"),
    owner: text(payload.opt("owner"), ""),
    time: payload.opt("timestamp"),
  };
}

/** Workflow (issue) webhooks (`state`: created, activated, acknowledged, closed). */
function fromIssue(payload: Payload): Alert {
  const policies = payload.opt("alertPolicyNames");
  const names = policies.exists() ? policies.list().map((name) => name.str()) : [];
  return {
    state: text(payload.opt("state"), "None"),
    incidentId: text(payload.opt("id"), "Unknown ID"),
    policy: names.length > 0 ? names.join(",") : "Unknown Policy",
    condition: text(payload.opt("condition_name"), "Unknown condition"),
    details: text(payload.opt("details"), "No details."),
    url: text(payload.opt("issueUrl"), "https://alerts.newrelic.com"),
    owner: text(payload.opt("owner"), ""),
    time: payload.opt("createdAt"),
  };
}

/**
 * A time in milliseconds as Python prints a UTC datetime, the form Zulip's
 * New Relic messages carry inside `<time:...>`: `2020-11-11 22:32:11.151000+00:00`
 * (no fraction when it is zero). Raises WebhookPayloadError for a missing or
 * non-numeric time, with Zulip's messages.
 */
function newrelicTime(value: Payload): string {
  if (!value.exists() || value.value === null) throw new WebhookPayloadError("The newrelic webhook requires timestamp in milliseconds");
  const ms = typeof value.value === "string" ? Number(value.value) : typeof value.value === "number" ? value.value : NaN;
  const micros = Math.round(ms * 1000);
  const date = new Date(Math.floor(micros / 1_000_000) * 1000);
  if (!Number.isFinite(ms) || Number.isNaN(date.getTime())) throw new WebhookPayloadError("The newrelic webhook expects time in milliseconds.");
  const fraction = ((micros % 1_000_000) + 1_000_000) % 1_000_000;
  const seconds = date.toISOString().slice(0, 19).replace("T", " ");
  return `${seconds}${fraction === 0 ? "" : `.${String(fraction).padStart(6, "0")}`}+00:00`;
}

/** The states each payload generation promises, with Zulip's refusal for any other. */
const INCIDENT_STATES = { states: ["open", "acknowledged", "closed"], refusal: "The newrelic webhook requires current_state be in [open|acknowledged|closed]" };
const ISSUE_STATES = {
  states: ["created", "activated", "acknowledged", "closed"],
  refusal: "The newrelic webhook requires state be in [created|activated|acknowledged|closed]",
};

function render(alert: Alert, known: typeof INCIDENT_STATES): WebhookResult {
  const topic = `${alert.policy} (${alert.incidentId})`;
  const at = newrelicTime(alert.time);
  const state = alert.state.toLowerCase();
  if (!known.states.includes(state)) throw new WebhookPayloadError(known.refusal);
  const incident = `[Incident](${alert.url})`;
  const condition = `for condition: **${alert.condition}**`;
  if (state === "open" || state === "activated") {
    const verb = state === "open" ? "opened" : "active";
    return singleMessage(alert.state, topic, `${incident} **${verb}** ${condition} at <time:${at}>\n${quoteBlock(alert.details)}`);
  }
  const by = alert.owner !== "" ? `by **${alert.owner}** ` : "";
  return singleMessage(alert.state, topic, `${incident} **${alert.state}** ${by}${condition}`);
}

/**
 * New Relic alerts (https://zulip.com/integrations/doc/newrelic; Zulip's
 * `api_newrelic_webhook`): alert-policy incidents (`current_state`) and
 * workflow issues (`state`, told apart by the issue's `id`). Topic
 * `<policy> (<incident id>)`; an opened (active) incident quotes its details
 * with the time, the other states name the owner when there is one. The
 * event type is the state. A payload without its time, or with a state New
 * Relic does not document, is refused with Zulip's message.
 */
export const newrelicIntegration: Integration = {
  name: "newrelic",
  displayName: "NewRelic",
  handle(request) {
    const payload = jsonPayload(request);
    // A workflow issue carries its `id`; an alert-policy incident does not.
    const id = payload.opt("id");
    if (!id.exists() || id.value === null || id.value === 0 || id.value === "") return render(fromIncident(payload), INCIDENT_STATES);
    return render(fromIssue(payload), ISSUE_STATES);
  },
};
