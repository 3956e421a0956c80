/**
 * Small formatting helpers shared by the monitoring, CI and work-tracking
 * integrations (alerting, builds, issue trackers): result constructors,
 * Zulip's global-time syntax, quote blocks, and Slack mrkdwn conversion.
 * Pure functions: no I/O, no clock.
 */
import type { WebhookMessage, WebhookResult } from "./types.js";

/** A `messages` result posting one message. */
export function singleMessage(eventType: string | null, topic: string, content: string): WebhookResult {
  return { kind: "messages", eventType, messages: [{ topic, content }] };
}

/** A `messages` result posting several messages (one per alert, per event, ...). */
export function manyMessages(eventType: string | null, messages: WebhookMessage[]): WebhookResult {
  return { kind: "messages", eventType, messages };
}

/**
 * Zulip's global-time Markdown (`<time:2024-03-01T02:09:00Z>`), which every
 * client shows in the reader's own time zone. `iso` is an ISO 8601 timestamp
 * from the payload, passed through as the sender wrote it.
 */
export function globalTime(iso: string): string {
  return `<time:${iso}>`;
}

/**
 * The same instant as {@link globalTime} from a Unix time in seconds (or
 * milliseconds when `unit` says so), rendered in UTC ISO 8601.
 */
export function globalTimeFromEpoch(value: number, unit: "s" | "ms" = "s"): string {
  const ms = unit === "s" ? value * 1000 : value;
  return globalTime(new Date(ms).toISOString().replace(".000Z", "Z"));
}

/** A Zulip quote block (```` ```quote ````), the way Zulip quotes bodies written elsewhere. */
export function quoteBlock(text: string): string {
  return `\`\`\`quote\n${text.trim()}\n\`\`\``;
}

/** A fenced code block (no language). */
export function codeBlock(text: string): string {
  return `\`\`\`\n${text.trim()}\n\`\`\``;
}

/** `[text](url)`, or just `text` when there is no URL. */
export function linkOrText(text: string, url: string | null | undefined): string {
  return url ? `[${text}](${url})` : text;
}
