import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/**
 * Ansible Tower / AWX job notifications (Zulip's
 * `api_ansibletower_webhook`, https://zulip.com/integrations/doc/ansibletower).
 * One kind of event (no event type); the topic is the job's name. A
 * playbook job ("Job") lists its hosts, sorted, each "Success" or "Failed";
 * other kinds (project or inventory updates, ad-hoc commands, system jobs)
 * say only whether they were successful or failed. Throws WebhookPayloadError when a needed
 * field is missing.
 */
export const ansibletowerIntegration: Integration = {
  name: "ansibletower",
  displayName: "AnsibleTower",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const name = payload.get("name").str();
    const kind = jobKind(payload);
    const outcome = payload.get("status").str() === "successful" ? "was successful" : "failed";
    const head = `${kind}: [#${payload.get("id").num()} ${name}](${payload.get("url").str()}) ${outcome}`;
    let content = `${head}.`;
    if (kind === "Job") {
      const hosts = payload.get("hosts");
      const rows = hosts
        .keys()
        .sort()
        .map((host) => `* ${host}: ${hosts.get(host).get("failed").bool() ? "Failed" : "Success"}`);
      content = `${head}:\n${rows.join("\n")}`;
    }
    return { kind: "messages", eventType: null, messages: [{ topic: name, content }] };
  },
};

/**
 * The job's kind: its `friendly_name`, or, when the sender omits it (older
 * Tower versions), the kind segment of its URL (`.../#/jobs/playbook/1`
 * is a playbook "Job").
 */
function jobKind(payload: Payload): string {
  const friendly = payload.opt("friendly_name").strOr("");
  if (friendly !== "") return friendly;
  const segments = payload.get("url").str().split("/");
  const kind = segments[segments.length - 3] ?? "";
  return kind === "jobs" ? "Job" : kind;
}
