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

/** `key = value` pairs of an object, comma-separated, or "" for an absent or empty one. */
function inlinePairs(group: Payload): string {
  if (!group.exists()) return "";
  return group
    .keys()
    .map((key) => `${key} = ${plain(group.get(key))}`)
    .join(", ");
}

/** One message per alert of Grafana 8+ (unified alerting) payloads. */
function unifiedAlert(alert: Payload): WebhookMessage {
  const status = alert.get("status").str();
  if (status !== "firing" && status !== "resolved") {
    throw new WebhookPayloadError(`${alert.get("status").path} is not "firing" or "resolved"`);
  }
  const labels = alert.get("labels");
  const alertname = labels.opt("alertname").strOr("");
  const fingerprint = alertname === "" ? alert.get("fingerprint").str() : "";
  const name = alertname !== "" ? `**${alertname}**` : `Alert \`${fingerprint}\``;
  const startsAt = globalTime(alert.get("startsAt").str());
  const endsAt = alert.get("endsAt").str();
  const lines =
    status === "firing"
      ? [`:alert: ${name} is firing since ${startsAt}.`]
      : [`:checkbox: ${name} is resolved${endsAt !== NO_END ? ` at ${globalTime(endsAt)}` : ""} (firing since ${startsAt}).`];
  const labelText = inlinePairs(labels);
  if (labelText !== "") lines.push(`**Labels:** ${labelText}`);
  const values = alert.opt("values");
  const valueText = values.exists() ? inlinePairs(values) : "";
  const valueString = alert.opt("valueString").strOr("");
  if (valueText !== "") lines.push(`**Values:** ${valueText}`);
  else if (valueString !== "") lines.push(`**Values:** \`${valueString}\``);
  const annotationList = keyValueList(alert.opt("annotations"));
  if (annotationList !== "") lines.push("", "**Annotations:**", annotationList);
  const links = [
    ["Generator", alert.opt("generatorURL").strOr("")],
    ["Silence", alert.opt("silenceURL").strOr("")],
    ["Image", alert.opt("imageURL").strOr("")],
  ].filter(([, url]) => url !== "");
  // A blank line keeps the links out of the annotation list above.
  if (links.length > 0) lines.push("", links.map(([text, url]) => `[${text}](${url})`).join(" · "));
  return { topic: `[${alertname !== "" ? alertname : fingerprint}]`, content: lines.join("\n") };
}

/** Grafana 7 (legacy alerting): one message about one rule, topic the alert title. */
function legacyAlert(payload: Payload): WebhookResult {
  const state = payload.get("state").str();
  if (!LEGACY_STATES.includes(state)) {
    throw new WebhookPayloadError(`${payload.get("state").path} is not a known alert state`);
  }
  const icon = state === "alerting" ? ":alert:" : state === "ok" ? ":squared_ok:" : ":info:";
  const rule = `[${payload.get("ruleName").str()}](${payload.get("ruleUrl").str()})`;
  const parts = [`${icon} ${rule}: **${state.replaceAll("_", " ")}**`];
  const message = payload.opt("message").strOr("");
  if (message !== "") parts.push(message);
  const matches = payload.opt("evalMatches");
  if (matches.exists() && matches.list().length > 0) {
    parts.push(matches.list().map((m) => `* ${m.get("metric").str()}: ${plain(m.get("value"))}`).join("\n"));
  }
  const image = payload.opt("imageUrl").strOr("");
  if (image !== "") parts.push(`[Panel snapshot](${image})`);
  return singleMessage(state, payload.get("title").str(), parts.join("\n\n"));
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
