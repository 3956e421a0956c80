/**
 * Small formatting helpers shared by the monitoring, CI and work-tracking
 * integrations (alerting, builds, issue trackers): result constructors,
 * Zulip's global-time syntax, quote blocks, and Slack mrkdwn conversion.
 * Pure functions: no I/O, no clock.
 */
import { WebhookPayloadError } from "./payload.js";
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

/** The largest distance from the epoch a JavaScript date can hold, in milliseconds. */
const MAX_DATE_MS = 8.64e15;

/**
 * The same instant as {@link globalTime} from a Unix time in seconds (or
 * milliseconds when `unit` says so), rendered in UTC ISO 8601, the zone
 * written `Z` or, as Python's `isoformat()` writes it, `+00:00`. Throws
 * {@link WebhookPayloadError} for a time no date can hold.
 */
export function globalTimeFromEpoch(value: number, unit: "s" | "ms" = "s", utc: "Z" | "+00:00" = "Z"): string {
  const ms = unit === "s" ? value * 1000 : value;
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) throw new WebhookPayloadError(`${value} is not a valid time`);
  return globalTime(new Date(ms).toISOString().replace(".000Z", "Z").replace(/Z$/, utc));
}

/**
 * A Zulip quote block (```` ```quote ````), the way Zulip quotes bodies
 * written elsewhere. The fence is longer than any backtick run in the text,
 * so a quoted code block cannot close the quote early.
 */
export function quoteBlock(text: string): string {
  const longestRun = (text.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0);
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}quote\n${text.trim()}\n${fence}`;
}

/**
 * Slack emphasis (`*bold*`, `~strike~`, `_italic_`) as a regular expression
 * of Slack's own rule: the markers must stand at word edges, i.e. after a
 * line start, a space, a punctuation mark or a symbol (but not the marker
 * itself, a backtick, `@`, a backslash or a closing bracket/quote) and
 * before a line end, a space, a punctuation mark or a symbol (but not the
 * marker, a backtick, `@`, a backslash or an opening bracket/quote). So
 * `*foo*a*bar*` stays as it is, as in Slack.
 */
function slackEmphasisPattern(marker: string): RegExp {
  // Under the `u` flag only syntax characters may be escaped: `*` is, `~` and `_` are not.
  const m = marker === "*" ? "\\*" : marker;
  const before = `((?![${m}\`@\\\\\\p{Pf}\\p{Pe}])[\\p{P}\\p{Zs}\\p{S}]|^)`;
  const after = `(?![${m}\`@\\\\\\p{Pi}\\p{Ps}])(?=[\\p{P}\\p{Zs}\\p{S}]|$)`;
  return new RegExp(`${before}${m}([^${m}]+)${m}${after}`, "gmu");
}

const SLACK_EMPHASIS: readonly [RegExp, string][] = [
  [slackEmphasisPattern("*"), "**"],
  [slackEmphasisPattern("~"), "~~"],
  [slackEmphasisPattern("_"), "*"],
];

/** Slack's `<!channel>`, `<!here>` and `<!everyone>` (optionally with a label) all mean everyone in the channel. */
const SLACK_WILDCARD = /<!(?:channel|here|everyone)(?:\|[^>]*)?>/g;
/** `<@U123>` or `<@U123|name>`: a Slack user, who has no Zulip account to mention. */
const SLACK_USER = /<@([A-Za-z0-9]+)(?:\|[^>]*)?>/g;
/** `<#C123>` or `<#C123|general>`: a Slack channel. */
const SLACK_CHANNEL = /<#([A-Za-z0-9]+)(?:\|[^>]*)?>/g;
/** `<https://x|label>`, `<https://x>`, `<mailto:a@b|a@b>`. */
const SLACK_LINK = /<((?:https?|ftp|mailto):[^|>\s]*)(?:\|([^>]*))?>/g;

/**
 * Slack mrkdwn to Zulip Markdown (https://api.slack.com/reference/surfaces/formatting),
 * the conversions Zulip's Slack-compatible webhook makes:
 * - `<url|text>` → `[text](url)`, `<url>` → `url`;
 * - `*bold*` → `**bold**`, `~strike~` → `~~strike~~`, `_italic_` → `*italic*`
 *   (only at word edges, as Slack itself formats them);
 * - `<!channel>`, `<!here>`, `<!everyone>` → `@**all**`;
 * - `<@U123>` → `@**Slack user U123**` and `<#C123|name>` → `#**Slack channel C123**`
 *   (Slack IDs name nobody here; Zulip shows such a mention as plain text).
 * Zulip's `convert_slack_formatting` and `replace_links`; throws nothing.
 */
export function slackMrkdwnToMarkdown(text: string): string {
  let out = text.replace(SLACK_LINK, (_all, url: string, label: string | undefined) =>
    label !== undefined && label !== "" ? `[${label}](${url})` : url,
  );
  for (const [pattern, zulip] of SLACK_EMPHASIS) {
    out = out.replace(pattern, (_all, before: string, inner: string) => `${before}${zulip}${inner}${zulip}`);
  }
  return out
    .replace(SLACK_WILDCARD, "@**all**")
    .replace(SLACK_USER, (_all, id: string) => `@**Slack user ${id}**`)
    .replace(SLACK_CHANNEL, (_all, id: string) => `#**Slack channel ${id}**`);
}
