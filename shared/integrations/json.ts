import { jsonPayload } from "./payload.js";
import type { Integration } from "./types.js";

/**
 * JSON text laid out as Python's `json.dumps(value, indent=2)` (Zulip's
 * JSON formatter uses it): two-space indentation, `": "` between key and
 * value, and every character outside printable ASCII escaped as `\uXXXX`
 * (`ensure_ascii`), so the code block shows exactly what was sent.
 */
export function jsonFormatterBody(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[^\x20-\x7e\n]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The JSON formatter integration (https://zulip.com/integrations/doc/json;
 * Zulip's `api_json_webhook`): posts any JSON payload pretty-printed in a
 * ```` ```json ```` code block under the topic `JSON`, for senders without
 * an integration of their own. It has no event types.
 */
export const jsonIntegration: Integration = {
  name: "json",
  displayName: "JSON",
  handle(request) {
    const payload = jsonPayload(request);
    return {
      kind: "messages",
      eventType: null,
      messages: [{ topic: "JSON", content: "```json\n" + jsonFormatterBody(payload.value) + "\n```" }],
    };
  },
};
