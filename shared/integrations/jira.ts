import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { quoteBlock, singleMessage } from "./format.js";
import type { Integration, WebhookResult } from "./types.js";

/** Events Jira sends that are deliberately not reported. */
const IGNORED_EVENTS = [
  "attachment_created",
  "issuelink_created",
  "issuelink_deleted",
  "jira:version_released",
  "jira:worklog_updated",
  "sprint_closed",
  "sprint_started",
  "worklog_created",
  "worklog_updated",
];

/** The string at `path` under `payload`, or `fallback` when any step is missing, null or not a string. */
function dig(payload: Payload, path: string[], fallback = ""): string {
  let node: Payload = payload;
  for (const key of path) {
    if (typeof node.value !== "object" || node.value === null || Array.isArray(node.value)) return fallback;
    node = node.opt(key);
  }
  return typeof node.value === "string" ? node.value : fallback;
}

/**
 * Jira wiki markup to Zulip Markdown, the simple cases: `*bold*`,
 * `{{monospace}}`, `bq.` lines, `{quote}`, `{noformat}` and `{code}` blocks,
 * `[url]` and `[title|url]` links, `[~user]` mentions (shown in bold: a Jira
 * user name names nobody here). Zulip's `convert_jira_markup`; throws nothing.
 */
export function jiraMarkupToMarkdown(text: string): string {
  return text
    .replace(/\*([^*]+)\*/g, "**$1**")
    .replace(/\{\{([^*]+?)\}\}/g, "`$1`")
    .replace(/bq\. (.*)/g, "> $1")
    .replace(/\{quote\}([\s\S]*?)\{quote\}/g, "~~~ quote\n$1\n~~~")
    .replace(/\{noformat\}([\s\S]*?)\{noformat\}/g, "~~~\n$1\n~~~")
    .replace(/\{code[^\n]*?\}([\s\S]*?)\{code\}/g, "~~~\n$1\n~~~")
    .replace(/\[([^|~\]]+?)\]/g, "[$1]($1)")
    .replace(/\[([^|~\]]+)\|([^\]]*)\]/g, "[$1]($2)")
    .replace(/\[~(.*?)\]/g, "**$1**");
}

/** Jira escapes `!` in comment bodies as `\\!`. */
function unescapeComment(body: string): string {
  return body.replaceAll("\\!", "!");
}

function issueKey(payload: Payload): string {
  // Some old Jira versions post comment events without the issue: its internal ID is in the comment's REST URL.
  if (!payload.opt("issue").exists()) return payload.get("comment").get("self").str().split("/").at(-3) ?? "";
  return dig(payload, ["issue", "key"]);
}

function issueTitle(payload: Payload): string {
  // Zulip's stand-in title when an old Jira leaves the issue out.
  if (!payload.opt("issue").exists()) return "Upgrade Jira to get the issue title here.";
  return dig(payload, ["issue", "fields", "summary"]);
}

/** `[KEY-1: title](<site>/browse/KEY-1)`: the browse URL is derived from the issue's REST URL. */
function issueLink(payload: Payload): string {
  const key = issueKey(payload);
  const text = `${key}: ${issueTitle(payload)}`;
  if (!payload.opt("issue").exists()) return text;
  const self = dig(payload, ["issue", "self"]);
  const restAt = self.lastIndexOf("/rest/api/");
  return restAt >= 0 ? `[${text}](${self.slice(0, restAt)}/browse/${key})` : text;
}

function author(payload: Payload): string {
  return dig(payload, ["user", "displayName"]);
}

/** What an `jira:issue_updated` event carries: a comment change, a transition, or field changes. */
function subEvent(payload: Payload): string {
  const named = payload.opt("issue_event_type_name").strOr("");
  if (named !== "") return named;
  const comment = payload.opt("comment");
  if (comment.exists() && comment.value !== "") return "issue_commented";
  if (payload.opt("transition").exists()) return "issue_transited";
  return "";
}

/** One changed field, as Zulip lists it: `* Changed status from **To Do** to **In Progress**`; a new assignee plainly by name. */
function changeLine(field: string, from: string | null, to: string | null): string {
  if (field === "assignee") return `* Changed assignee to ${to ?? "nobody"}`;
  return `* Changed ${field}${from ? ` from **${from}**` : ""} to ${to ? `**${to}**` : "nothing"}`;
}

function issueUpdated(payload: Payload): string {
  const assignee = dig(payload, ["issue", "fields", "assignee", "displayName"]) || dig(payload, ["issue", "fields", "assignee", "emailAddress"]);
  const assigned = assignee !== "" ? ` (assigned to ${assignee})` : "";
  const sub = subEvent(payload);
  if (sub.includes("comment")) {
    const verb = sub === "issue_commented" ? "commented on" : sub === "issue_comment_edited" ? "edited a comment on" : "deleted a comment from";
    const head = `${author(payload)} ${verb} ${issueLink(payload)}${assigned}`;
    const body = dig(payload, ["comment", "body"]);
    return body !== "" ? `${head}:\n\n\`\`\` quote\n${jiraMarkupToMarkdown(body)}\n\`\`\`` : `${head}.`;
  }
  const lines: string[] = [];
  const changelog = payload.opt("changelog");
  if (changelog.exists()) {
    for (const item of changelog.opt("items").exists() ? changelog.get("items").list() : []) {
      const field = item.opt("field").strOr("(field)");
      const to = field === "assignee" && assignee !== "" ? assignee : item.opt("toString").strOr(null);
      const from = item.opt("fromString").strOr(null);
      if (to || from) lines.push(changeLine(field, from, to));
    }
  } else if (sub === "issue_transited") {
    lines.push(changeLine("status", dig(payload, ["transition", "from_status"]) || null, dig(payload, ["transition", "to_status"]) || null));
  }
  return `${author(payload)} updated ${issueLink(payload)}${assigned}${lines.length > 0 ? `:\n\n${lines.join("\n")}` : "."}`;
}

function issueCreated(payload: Payload): string {
  const priority = dig(payload, ["issue", "fields", "priority", "name"], "no").toLowerCase();
  const assignee = dig(payload, ["issue", "fields", "assignee", "displayName"]);
  const assigned = assignee !== "" ? ` (assigned to ${assignee})` : "";
  return `${author(payload)} created ${issueLink(payload)} with ${priority} priority${assigned}.`;
}

function issueDeleted(payload: Payload): string {
  const title = issueTitle(payload);
  const stop = /[\p{P}]$/u.test(title) ? "" : ".";
  return `${author(payload)} deleted ${issueLink(payload)}${stop}`;
}

/** `comment_created` / `comment_updated` / `comment_deleted`: the comment's author and text. */
function commentEvent(payload: Payload, event: string): string {
  const comment = payload.get("comment");
  const who = comment.get("author").get("displayName").str();
  const body = unescapeComment(comment.get("body").str());
  const verb = { comment_created: "commented on", comment_updated: "updated their comment on", comment_deleted: "deleted their comment on" }[event];
  const quoted = event === "comment_deleted" ? `~~${body}~~` : body;
  return `${who} ${verb} ${issueLink(payload)}\n\`\`\` quote\n${quoted}\n\`\`\``;
}

const HANDLERS: Record<string, (payload: Payload, event: string) => string> = {
  "jira:issue_created": issueCreated,
  "jira:issue_deleted": issueDeleted,
  "jira:issue_updated": issueUpdated,
  comment_created: commentEvent,
  comment_updated: commentEvent,
  comment_deleted: commentEvent,
};

/**
 * Jira (https://zulip.com/integrations/doc/jira; Zulip's
 * `api_jira_webhook`): issues created, updated (comments, transitions,
 * field changes, assignments), deleted, and comment events, topic
 * `<KEY>: <summary>`. The event type is `webhookEvent` (a payload without
 * one but with a `transition` is an issue update); attachment, issue-link,
 * version, sprint and worklog events are ignored, others unsupported, and
 * a payload with no event at all is refused.
 */
export const jiraIntegration: Integration = {
  name: "jira",
  displayName: "Jira",
  unquoteUrlParameters: true,
  handle(request): WebhookResult {
    const payload = jsonPayload(request);
    let event = payload.opt("webhookEvent").strOr(null);
    if (event === null && payload.opt("transition").exists()) event = "jira:issue_updated";
    if (event === null) throw new WebhookPayloadError("Anomalous webhook payload: no webhookEvent");
    if (IGNORED_EVENTS.includes(event)) return { kind: "ignored", eventType: event };
    const handler = Object.hasOwn(HANDLERS, event) ? HANDLERS[event] : undefined;
    if (handler === undefined) return { kind: "unsupported", eventType: event };
    return singleMessage(event, `${issueKey(payload)}: ${issueTitle(payload)}`, handler(payload, event));
  },
};
