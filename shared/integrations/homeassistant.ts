import { jsonPayload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/**
 * Home Assistant notifications (Zulip's `api_homeassistant_webhook`,
 * https://zulip.com/integrations/doc/homeassistant): the notify service
 * posts `{"message": ..., "topic"?: ...}`; the message is posted as is,
 * under the payload's topic or `homeassistant`. One kind of event (no event
 * type). Throws WebhookPayloadError when `message` is missing.
 */
export const homeassistantIntegration: Integration = {
  name: "homeassistant",
  displayName: "HomeAssistant",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const content = payload.get("message").str();
    const topic = payload.opt("topic").strOr("homeassistant");
    return { kind: "messages", eventType: null, messages: [{ topic, content }] };
  },
};
