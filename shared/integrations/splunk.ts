import { jsonPayload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/**
 * Splunk saved-search alerts (Zulip's `api_splunk_webhook`,
 * https://zulip.com/integrations/doc/splunk). One kind of event (no event
 * type). Splunk alert payloads vary with the search, so, as Zulip does, a
 * missing field is reported as missing in the message rather than refused;
 * the topic is the search name (the endpoint caps its length).
 */
export const splunkIntegration: Integration = {
  name: "splunk",
  displayName: "Splunk",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const search = payload.opt("search_name").strOr("Missing search_name");
    const link = payload.opt("results_link").strOr(null);
    const result = payload.opt("result");
    const field = (key: string) => (result.exists() ? result.opt(key).strOr(`Missing ${key}`) : `Missing ${key}`);
    const content = [
      "Splunk alert from a saved search:",
      // A missing link is said in words: a link to "Missing ..." would be a broken one.
      `* **Search**: ${link === null ? `${search} (Missing results_link)` : `[${search}](${link})`}`,
      `* **Host**: ${field("host")}`,
      `* **Source**: \`${field("source")}\``,
      `* **Raw**: \`${field("_raw")}\``,
    ].join("\n");
    return { kind: "messages", eventType: null, messages: [{ topic: search, content }] };
  },
};
