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
 * payload names a branch. The message says whether the analysis resulted in
 * "success" (quality gate OK) or "error", and lists the conditions that are neither OK
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
    const subject = `Project [${name}](${project.get("url").str()}) analysis${branch ? ` of branch ${branch}` : ""}`;
    const verdict = `${subject} resulted in ${outcome}`;
    const content = failed.length > 0 ? `${verdict}:\n${failed.join("\n")}` : `${verdict}.`;
    return { kind: "messages", eventType: null, messages: [{ topic: branch ? `${name} / ${branch}` : name, content }] };
  },
};

/** `* coverage: **error** 0.0 should be greater than or equal to 80.`, or `* coverage: **error**.` without a value. */
function sonarqubeCondition(condition: Payload): string {
  const metric = condition.get("metric").str().split("_").join(" ");
  const status = condition.get("status").str().toLowerCase();
  const threshold = condition.get("errorThreshold").str();
  const operator = condition.get("operator").str();
  const value = condition.opt("value").strOr(null);
  if (value === null) return `* ${metric}: **${status}**.`;
  return `* ${metric}: **${status}** ${value} ${SONARQUBE_REQUIREMENT[operator] ?? operator} ${threshold}.`;
}
