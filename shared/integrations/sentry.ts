import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { globalTime, globalTimeFromEpoch, quoteBlock, singleMessage } from "./format.js";
import type { Integration, WebhookResult } from "./types.js";

/** Sentry platform → code-block language for the traceback. */
const LANGUAGE_OF_PLATFORM: Record<string, string> = {
  go: "go",
  java: "java",
  javascript: "javascript",
  node: "javascript",
  python: "python3",
  ruby: "ruby",
};

/** Sentry's sample event, which still carries a Raven-era SDK version. */
const SAMPLE_EVENT_TITLE = "This is an example Python exception";

function unsupported(eventType: string): WebhookResult {
  return { kind: "unsupported", eventType };
}

/** Source lines around the failing one, indented to line up under the `---> ` marker. */
function contextLines(lines: Payload): string[] {
  if (!lines.exists()) return [];
  return lines.list().map((line) => (line.str() === "" ? "" : `     ${line.str()}`));
}

/** The traceback excerpt of an exception event, or null when the failing frame has no source line. */
function traceback(event: Payload, filename: string): string | null {
  const withStack = event.get("exception").get("values").list().reverse().find((v) => v.opt("stacktrace").exists());
  if (withStack === undefined) return null;
  const frame = withStack
    .get("stacktrace")
    .get("frames")
    .list()
    .reverse()
    .find((f) => f.opt("filename").strOr(null) === filename);
  if (frame === undefined || !frame.opt("context_line").exists()) return null;
  const language = LANGUAGE_OF_PLATFORM[event.get("platform").str()] ?? "";
  const lines = [
    ...contextLines(frame.opt("pre_context")),
    `---> ${frame.get("context_line").str()}`,
    ...contextLines(frame.opt("post_context")),
  ];
  while (lines.at(-1) === "") lines.pop();
  return `Traceback:\n\`\`\`${language}\n${lines.join("\n")}\n\`\`\``;
}

/** An event alert (an exception or a message captured by an SDK); `time` is already Markdown. */
function eventMessage(event: Payload, webUrl: string, time: string): WebhookResult {
  const platform = event.get("platform").str();
  const version = Number(event.get("version").value);
  const title = event.get("title").str();
  // Events of the deprecated Raven Python SDKs (before version 7) are refused, but for Sentry's own sample event.
  if (platform === "python" && version < 7 && title !== SAMPLE_EVENT_TITLE) return unsupported("Raven SDK");
  const level = event.get("level").str();
  if (event.opt("exception").exists()) {
    const filename = event.get("metadata").opt("filename").strOr(null);
    const facts = [`**Level:** ${level}`, `**Time:** ${time}`, `**File:** ${filename ?? "(unknown)"}`];
    const parts = [`**Exception captured:** [${title}](${webUrl})`, quoteBlock(facts.join("\n"))];
    const trace = filename === null ? null : traceback(event, filename);
    if (trace !== null) parts.push(trace);
    return singleMessage(null, title, parts.join("\n"));
  }
  if (event.opt("logentry").exists()) {
    const facts = [`**Level:** ${level}`, `**Time:** ${time}`];
    return singleMessage(null, title, `**Message captured:** [${title}](${webUrl})\n${quoteBlock(facts.join("\n"))}`);
  }
  return unsupported("unknown-event type");
}

/** An issue changing state (created, assigned, resolved, ignored), by whom. */
function issueMessage(action: string, issue: Payload, actor: Payload): WebhookResult {
  const title = issue.get("title").str();
  const assignedTo = issue.get("assignedTo");
  let assignee = "no one";
  if (assignedTo.exists()) {
    const name = assignedTo.get("name").str();
    assignee = assignedTo.get("type").str() === "team" ? `team ${name}` : name;
  }
  switch (action) {
    case "created": {
      const facts = [
        `**Level:** ${issue.get("level").str()}`,
        `**Last seen:** ${globalTime(issue.get("lastSeen").str())}`,
        `**Assignee:** ${assignee}`,
      ];
      return singleMessage(null, title, `**Issue created:** ${title}\n${quoteBlock(facts.join("\n"))}`);
    }
    case "assigned":
      return singleMessage(null, title, `**${actor.get("name").str()}** assigned issue **${title}** to **${assignee}**.`);
    case "resolved":
      return singleMessage(null, title, `**${actor.get("name").str()}** resolved issue **${title}**.`);
    case "ignored":
      return singleMessage(null, title, `**${actor.get("name").str()}** ignored issue **${title}**.`);
    default:
      return unsupported("unknown-issue-action type");
  }
}

/** The event's page: `events/<id>/` under the issue URL the plugin sends. */
function eventUrl(issueUrl: Payload, eventId: string): string {
  if (!URL.canParse(issueUrl.str())) throw new WebhookPayloadError(`${issueUrl.path} is not a URL`);
  return new URL(`events/${eventId}/`, issueUrl.str()).toString();
}

/** The legacy webhooks plugin's alert about a new issue (no event ID): topic the project name. */
function legacyAlert(payload: Payload): WebhookResult {
  const project = payload.opt("project_name").strOr("(unknown project)");
  const level = payload.get("level").str().toUpperCase();
  const url = payload.opt("url").strOr("");
  const message = payload.opt("message").strOr("");
  return singleMessage(null, project, `Sentry alert for a new [issue](${url}), level ${level}:\n\n${quoteBlock(message)}`);
}

/**
 * Sentry (https://zulip.com/integrations/doc/sentry; Zulip's
 * `api_sentry_webhook`). Three payload families:
 * - internal-integration alerts (`data.event`): an exception (with the
 *   failing source lines when Sentry sent them) or a captured message,
 *   topic the event title; events of Raven Python SDKs (version < 7) are
 *   unsupported ("Raven SDK"), as is an event of neither kind;
 * - issue webhooks (`data.issue` with `action` created/assigned/resolved/
 *   ignored), topic the issue title; other actions are unsupported;
 * - the webhooks plugin: with an event ID it is read like an alert (link
 *   `<url>/events/<id>/`, time from the event timestamp), without one it
 *   is a legacy alert under the project name.
 * No event type on posted messages.
 */
export const sentryIntegration: Integration = {
  name: "sentry",
  displayName: "Sentry",
  handle(request) {
    const payload = jsonPayload(request);
    const data = payload.opt("data");
    if (data.exists() && data.keys().length > 0) {
      if (data.opt("event").exists()) {
        const event = data.get("event");
        const time = globalTime(event.get("datetime").str());
        return eventMessage(event, event.get("web_url").str(), time);
      }
      if (data.opt("issue").exists()) {
        return issueMessage(payload.get("action").str(), data.get("issue"), payload.get("actor"));
      }
      return unsupported(JSON.stringify(data.keys()));
    }
    const event = payload.opt("event");
    const eventId = event.exists() ? event.opt("event_id").strOr("") : "";
    if (eventId === "") return legacyAlert(payload);
    const webUrl = eventUrl(payload.get("url"), eventId);
    const timestamp = event.opt("timestamp").exists() ? event.get("timestamp") : event.get("received");
    const seconds = timestamp.num();
    if (!Number.isFinite(seconds)) throw new WebhookPayloadError(`${timestamp.path} is not a number`);
    return eventMessage(event, webUrl, globalTimeFromEpoch(Math.trunc(seconds)));
  },
};
