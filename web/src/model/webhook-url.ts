/**
 * The URL a third-party system posts to for an incoming-webhook bot
 * (https://zulip.com/help/incoming-webhooks-overview,
 * https://zulip.com/api/incoming-webhooks-overview): the integration's
 * endpoint with the bot's API key, and optionally where its messages go.
 */
export interface WebhookUrlParts {
  /** The site's origin, e.g. `https://chat.example.com` (no trailing slash needed). */
  site: string;
  /** The integration's URL name (`github`, `json`, …). */
  integration: string;
  apiKey: string;
  /** The stream's name; absent: the bot sends its owner a direct message instead. */
  stream?: string;
  /** The topic; absent: the integration picks one (usually from the event). */
  topic?: string;
}

/**
 * `<site>/api/v1/external/<integration>?api_key=<key>[&stream=<name>][&topic=<topic>]`,
 * each value percent-encoded (a stream name may hold spaces and `&`).
 */
export function webhookUrl(parts: WebhookUrlParts): string {
  const query = new URLSearchParams({ api_key: parts.apiKey });
  if (parts.stream) query.set("stream", parts.stream);
  if (parts.topic) query.set("topic", parts.topic);
  // URLSearchParams writes a space as `+`, which the server decodes as a space too; %20 reads better when pasted.
  const search = query.toString().replace(/\+/g, "%20");
  return `${parts.site.replace(/\/+$/, "")}/api/v1/external/${encodeURIComponent(parts.integration)}?${search}`;
}

/** A bot's `zuliprc` (https://zulip.com/api/configuring-python-bindings): the file the Python bindings and `zulip-send` read. */
export function zuliprc(email: string, apiKey: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site.replace(/\/+$/, "")}\n`;
}
