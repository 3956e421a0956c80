/**
 * The contract between the incoming-webhook endpoint and the integrations:
 * each integration is a pure function from the sender's request to the
 * messages it posts (https://zulip.com/api/incoming-webhooks-overview).
 * The endpoint owns everything common to all of them: authentication, the
 * `stream`/`topic` parameters, `only_events`/`exclude_events`, truncation
 * and sending.
 */

/** The sender's request as an integration sees it. */
export interface WebhookRequest {
  /** Header names lower-cased. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Query parameters other than `api_key` (last value wins), e.g. `branches`, `topic`. */
  query: Readonly<Record<string, string | undefined>>;
  /** The body exactly as sent (UTF-8 text; `""` when there was none). */
  body: string;
  /** The `Content-Type` header without parameters, lower-cased (`application/json`, ...). */
  contentType: string;
}

/** One message an integration posts. */
export interface WebhookMessage {
  /** The topic the integration names (the endpoint applies a `topic` parameter over it and caps it). */
  topic: string;
  /** Zulip Markdown (the endpoint caps it at the message length limit). */
  content: string;
}

/**
 * What an integration makes of a request. `eventType` is the name that
 * `only_events`/`exclude_events` match against and that an unsupported
 * event reports (Zulip's `event_type` of `check_send_webhook_message`).
 */
export type WebhookResult =
  /** Post these messages (usually one; some senders batch several events). */
  | { kind: "messages"; eventType: string | null; messages: WebhookMessage[] }
  /** An event the integration deliberately does not report: answered with success, nothing posted. */
  | { kind: "ignored"; eventType: string | null }
  /** An event the integration does not know: `UNSUPPORTED_WEBHOOK_EVENT_TYPE`, HTTP 200. */
  | { kind: "unsupported"; eventType: string };

/** One integration, as the registry lists it. */
export interface Integration {
  /** The URL name: `/api/v1/external/<name>` (e.g. `github`, `slack_incoming`). */
  name: string;
  /** The name in messages ("The 'x' event isn't currently supported by the <displayName> webhook"). */
  displayName: string;
  /**
   * Every event type the integration reports, for `only_events` /
   * `exclude_events` pickers (register's `realm_incoming_webhook_bots`
   * `all_event_types`); omit when it has none to list.
   */
  allEventTypes?: readonly string[];
  /**
   * Turns one request into messages. Throws {@link WebhookPayloadError}
   * (via the accessors of `payload.ts`) when the payload lacks what it
   * needs; never anything else for bad input.
   */
  handle(request: WebhookRequest): WebhookResult;
  /**
   * Fields this integration's sender expects in a success answer besides
   * `result` and `msg` (Slack-compatible senders check `"ok": true`).
   */
  successFields?: Readonly<Record<string, unknown>>;
  /**
   * Percent-decode the `stream` and `topic` URL parameters once more before
   * use (Zulip's `unquote_url_parameters`): some senders (Jira) escape the
   * URL they were given again, so `jira%20alerts` arrives for `jira alerts`.
   */
  unquoteUrlParameters?: boolean;
}
