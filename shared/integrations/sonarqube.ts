import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** How a failed condition's operator reads as the requirement it breaks. */
const SONARQUBE_REQUIREMENT: Readonly<Record<string, string>> = {
  WORSE_THAN: "should be better or equal to",
  GREATER_THAN: "should be less than or equal to",
  LESS_THAN: "should be greater than or equal to",
};

/**
 * SonarQube analysis results (Zulip's `api_sonarqube_webhook`,
 * https://zulip.com/integrations/doc/sonarqube). One kind of event (no event
 * type). The topic is the project name, `<project> / <branch>` when the
 * payload names a branch. The message says whether the quality gate passed
 * ("success") or not ("error") and lists the conditions that are neither OK
 * nor without value. Throws WebhookPayloadError when a needed field is
 * missing.
 */
export const sonarqubeIntegration: Integration = {
  name: "sonarqube",
  displayName: "Sonarqube",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const project = payload.get("project");
    const name = project.get("name").str();
    const branchPayload = payload.opt("branch");
    const branch = branchPayload.exists() ? branchPayload.opt("name").strOr(null) : null;
    const gate = payload.get("qualityGate");
    const outcome = gate.get("status").str().toLowerCase() === "ok" ? "success" : "error";
    const failed = gate
      .get("conditions")
      .list()
      .filter((c) => !["ok", "no_value"].includes(c.get("status").str().toLowerCase()))
      .map(sonarqubeCondition);
    const subject = `Analysis of [${name}](${project.get("url").str()})${branch ? ` on branch ${branch}` : ""}`;
    const verdict = `${subject}: quality gate **${outcome}**`;
    const content = failed.length > 0 ? `${verdict}:\n${failed.join("\n")}` : `${verdict}.`;
    return { kind: "messages", eventType: null, messages: [{ topic: branch ? `${name} / ${branch}` : name, content }] };
  },
};

/** `* coverage: 0.0 (**error**: should be greater than or equal to 80)`, or `* coverage: **error** (no value)`. */
function sonarqubeCondition(condition: Payload): string {
  const metric = condition.get("metric").str().split("_").join(" ");
  const status = condition.get("status").str().toLowerCase();
  const threshold = condition.get("errorThreshold").str();
  const operator = condition.get("operator").str();
  const value = condition.opt("value").strOr(null);
  if (value === null) return `* ${metric}: **${status}** (no value)`;
  return `* ${metric}: ${value} (**${status}**: ${SONARQUBE_REQUIREMENT[operator] ?? operator} ${threshold})`;
}
