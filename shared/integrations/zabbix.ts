import { jsonPayload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/**
 * Zabbix trigger alerts, as posted by the media-type script of Zulip's
 * setup guide (Zulip's `api_zabbix_webhook`,
 * https://zulip.com/integrations/doc/zabbix). One kind of event (no event
 * type); the topic is the host name. Throws WebhookPayloadError when one of
 * `hostname`, `severity`, `status`, `item`, `trigger`, `link` is missing.
 */
export const zabbixIntegration: Integration = {
  name: "zabbix",
  displayName: "Zabbix",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const hostname = payload.get("hostname").str();
    const severity = payload.get("severity").str();
    const status = payload.get("status").str();
    const item = payload.get("item").str();
    const trigger = payload.get("trigger").str();
    const link = payload.get("link").str();
    const content = `**${status}** (${severity}) on [${hostname}](${link}):\n* ${trigger}\n* ${item}`;
    return { kind: "messages", eventType: null, messages: [{ topic: hostname, content }] };
  },
};
