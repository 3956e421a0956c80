import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { globalTime, manyMessages, singleMessage } from "./format.js";
import type { Integration, WebhookMessage, WebhookResult } from "./types.js";

/** Grafana's "not resolved yet" end time. */
const NO_END = "0001-01-01T00:00:00Z";

const LEGACY_STATES = ["no_data", "paused", "alerting", "ok", "pending", "unknown"];

/** A string or number value as a reader would expect it (`null` spelled out). */
function plain(value: Payload): string {
  if (!value.exists()) return "(none)";
  return typeof value.value === "number" ? String(value.value) : value.str();
}

/** `- key: value` for each member of an object, or "" for an absent or empty one. */
function keyValueList(group: Payload): string {
  if (!group.exists()) return "";
  return group
    .keys()
    .map((key) => `- ${key}: ${plain(group.get(key))}`)
    .join("\n");
}

/** One message per alert of Grafana 8+ (unified alerting) payloads. */
function unifiedAlert(alert: Payload): WebhookMessage {
  const status = alert.get("status").str();
  if (status !== "firing" && status !== "resolved") {
    throw new WebhookPayloadError(`${alert.get("status").path} is not "firing" or "resolved"`);
  }
  const labels = alert.get("labels");
  const alertname = labels.opt("alertname").strOr("");
  const lines = [status === "firing" ? ":alert: **FIRING**" : ":checkbox: **RESOLVED**", ""];
  if (alertname !== "") lines.push(`**${alertname}**`, "");
  lines.push(`Fired at ${globalTime(alert.get("startsAt").str())}.`);
  const endsAt = alert.get("endsAt").str();
  if (endsAt !== NO_END) lines.push(`Resolved at ${globalTime(endsAt)}.`);
  const labelList = keyValueList(labels);
  if (labelList !== "") lines.push("", "Labels:", labelList);
  const values = alert.opt("values");
  const valueList = values.exists() ? keyValueList(values) : "";
  const valueString = alert.opt("valueString").strOr("");
  if (valueList !== "") lines.push("", "Values:", valueList);
  else if (valueString !== "") lines.push("", "Values:", valueString);
  const annotationList = keyValueList(alert.opt("annotations"));
  if (annotationList !== "") lines.push("", "Annotations:", annotationList);
  const links = [
    ["Generator", alert.opt("generatorURL").strOr("")],
    ["Silence", alert.opt("silenceURL").strOr("")],
    ["Image", alert.opt("imageURL").strOr("")],
  ].filter(([, url]) => url !== "");
  if (links.length > 0) lines.push("", links.map(([text, url]) => `[${text}](${url})`).join(" · "));
  const topic = `[${alertname !== "" ? alertname : alert.get("fingerprint").str()}]`;
  return { topic, content: lines.join("\n") };
}

/** Grafana 7 (legacy alerting): one message about one rule, topic the alert title. */
function legacyAlert(payload: Payload): WebhookResult {
  const state = payload.get("state").str();
  if (!LEGACY_STATES.includes(state)) {
    throw new WebhookPayloadError(`${payload.get("state").path} is not a known alert state`);
  }
  const icon = state === "alerting" ? ":alert:" : state === "ok" ? ":squared_ok:" : ":info:";
  const lines = [`${icon} **${state.toUpperCase()}**`, "", `[${payload.get("ruleName").str()}](${payload.get("ruleUrl").str()})`];
  const message = payload.opt("message").strOr("");
  if (message !== "") lines.push("", message);
  const matches = payload.opt("evalMatches");
  if (matches.exists() && matches.list().length > 0) {
    lines.push("", ...matches.list().map((m) => `**${m.get("metric").str()}:** ${plain(m.get("value"))}`));
  }
  const image = payload.opt("imageUrl").strOr("");
  if (image !== "") lines.push("", `[View the visualization](${image})`);
  return singleMessage(state, payload.get("title").str(), lines.join("\n"));
}

/**
 * Grafana alert notifications (https://zulip.com/integrations/doc/grafana;
 * Zulip's `api_grafana_webhook`). Two payload families:
 * - unified alerting (Grafana 8+, an `alerts` list): one message per alert,
 *   topic `[<alertname>]` (the fingerprint when unnamed), with times,
 *   labels, values, annotations and links; event type `firing`/`resolved`
 *   (the payload's overall `status`, which is `firing` while any alert is);
 * - legacy alerting (Grafana 7): one message, topic the alert title, event
 *   type the rule `state`.
 */
export const grafanaIntegration: Integration = {
  name: "grafana",
  displayName: "Grafana",
  handle(request) {
    const payload = jsonPayload(request);
    if (!payload.opt("alerts").exists()) return legacyAlert(payload);
    const alerts = payload.get("alerts").list();
    const messages = alerts.map(unifiedAlert);
    const status = payload.opt("status").strOr(alerts[0]?.get("status").str() ?? "firing");
    return manyMessages(status, messages);
  },
};
