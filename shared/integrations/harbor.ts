import { jsonPayload, type Payload, WebhookPayloadError } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** Events Harbor sends that Zulip deliberately does not report. */
const HARBOR_IGNORED = new Set([
  "DOWNLOAD_CHART",
  "DELETE_CHART",
  "UPLOAD_CHART",
  "PULL_ARTIFACT",
  "DELETE_ARTIFACT",
  "SCANNING_FAILED",
]);

/** The scan report format Zulip reads vulnerability counts from. */
const HARBOR_REPORT_TYPE = "application/vnd.security.vulnerability.report; version=1.1";

/**
 * Harbor registry webhooks (Zulip's `api_harbor_webhook`,
 * https://zulip.com/integrations/doc/harbor). The payload's `type` is the
 * event type: `PUSH_ARTIFACT` and `SCANNING_COMPLETED` are reported,
 * chart events, pulls, deletions and failed scans are ignored, anything else
 * is unsupported; a scan result in another report format is unsupported as
 * Zulip's "Unsupported harbor scanning webhook payload". The topic is the
 * repository's full name. Zulip mentions the operator when a Zulip user
 * matches the Harbor name; that needs the realm's users, so the operator is
 * shown in bold here. Throws WebhookPayloadError when a needed field is
 * missing.
 */
export const harborIntegration: Integration = {
  name: "harbor",
  displayName: "Harbor",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const eventType = payload.get("type").str();
    if (HARBOR_IGNORED.has(eventType)) return { kind: "ignored", eventType };
    const data = payload.get("event_data");
    const topic = data.get("repository").get("repo_full_name").str();
    const resources = data.get("resources");
    const resource = resources.list()[0];
    if (resource === undefined) throw new WebhookPayloadError(`${resources.path}[0] is missing`);
    const image = `\`${topic}${imageReference(resource)}\``;
    if (eventType === "PUSH_ARTIFACT") {
      const content = `**${payload.get("operator").str()}** pushed image ${image}`;
      return { kind: "messages", eventType, messages: [{ topic, content }] };
    }
    if (eventType === "SCANNING_COMPLETED") {
      const overview = resource.get("scan_overview");
      const report = overview.opt(HARBOR_REPORT_TYPE);
      if (!report.exists()) return { kind: "unsupported", eventType: "Unsupported harbor scanning webhook payload" };
      const counts = report.get("summary").get("summary");
      const lines = counts.keys().map((severity) => `* ${severity}: **${counts.get(severity).num()}**`);
      const found = lines.length > 0 ? lines.join("\n") : "None";
      const content = `Scan of ${image} completed. Vulnerabilities found, by severity:\n\n${found}`;
      return { kind: "messages", eventType, messages: [{ topic, content }] };
    }
    return { kind: "unsupported", eventType };
  },
};

/** `:tag`, or `@digest` for an artifact pushed or scanned without a tag. */
function imageReference(resource: Payload): string {
  const tag = resource.opt("tag").strOr(null);
  return tag !== null ? `:${tag}` : `@${resource.get("digest").str()}`;
}
