import { requireEventHeader } from "./event-header.js";
import { jsonPayload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** The deploy notifications Zulip reports (the `X-Netlify-Event` header). */
const NETLIFY_EVENTS = new Set(["deploy_failed", "deploy_locked", "deploy_unlocked", "deploy_building", "deploy_created"]);

/**
 * Netlify deploy notifications (Zulip's `api_netlify_webhook`,
 * https://zulip.com/integrations/doc/netlify). The `X-Netlify-Event` header
 * is the event type; the topic is the deployed branch. A failed deploy
 * carries its error message, a building or created one its state. Throws
 * WebhookPayloadError when the header or a needed field is missing.
 */
export const netlifyIntegration: Integration = {
  name: "netlify",
  displayName: "Netlify",
  handle(request: WebhookRequest): WebhookResult {
    const eventType = requireEventHeader(request, "X-Netlify-Event");
    if (!NETLIFY_EVENTS.has(eventType)) return { kind: "unsupported", eventType };
    const payload = jsonPayload(request);
    const branch = payload.get("branch").str();
    const build = `[${payload.get("name").str()}](${payload.get("url").str()})`;
    let outcome: string;
    if (eventType === "deploy_failed") outcome = `failed: ${payload.get("error_message").str()}`;
    else if (eventType === "deploy_locked") outcome = "is locked.";
    else if (eventType === "deploy_unlocked") outcome = "is unlocked.";
    else outcome = `is ${payload.get("state").str()}.`;
    const content = `The build ${build} of branch ${branch} ${outcome}`;
    return { kind: "messages", eventType, messages: [{ topic: branch, content }] };
  },
};
