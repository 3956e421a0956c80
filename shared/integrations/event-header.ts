import { WebhookPayloadError } from "./payload.js";
import type { WebhookRequest } from "./types.js";

/**
 * The value of the header that names a sender's event (e.g.
 * `X-Netlify-Event`), as Zulip's `validate_extract_webhook_http_header`
 * reads it. Throws WebhookPayloadError "Missing the HTTP event header
 * '<name>'" when it is absent or empty.
 */
export function requireEventHeader(request: WebhookRequest, name: string): string {
  const value = request.headers[name.toLowerCase()];
  if (value === undefined || value === "") throw new WebhookPayloadError(`Missing the HTTP event header '${name}'`);
  return value;
}
