import { jsonPayload, type Payload } from "./payload.js";
import { singleMessage } from "./format.js";
import type { Integration, WebhookResult } from "./types.js";

/** Linear object types that are deliberately not reported. */
const IGNORED_TYPES = ["IssueLabel", "Project", "ProjectUpdate", "Cycle", "Reaction"];

/** Titles longer than this are cut in topics (then marked with `...`), as Zulip's Linear topics are. */
const TOPIC_TITLE_LENGTH = 50;

/** A Zulip `~~~ quote` block around text written in Linear. */
function quoted(text: string): string {
  return `\n~~~ quote\n${text}\n~~~\n`;
}

/** `Issue: <title>` / `Sub-Issue: <title>`, the title cut to {@link TOPIC_TITLE_LENGTH} characters. */
function issueTopic(kind: string, title: string): string {
  const short = title.length > TOPIC_TITLE_LENGTH ? `${title.slice(0, TOPIC_TITLE_LENGTH)}...` : title;
  return `${kind}: ${short}`;
}

/** An issue or sub-issue created, updated or removed: `[Issue](url) was created in team T` and its facts. */
function issueMessage(payload: Payload, kind: string): string {
  const data = payload.get("data");
  const team = data.get("team").get("name").str();
  const action = payload.get("action").str();
  if (action === "remove") return `This issue has been removed from team ${team}.`;
  const verb = action === "create" ? "created" : "updated";
  let message = `[${kind}](${payload.get("url").str()}) was ${verb} in team ${team}`;
  const description = data.opt("description");
  message += description.exists() ? `:${quoted(description.str())}` : ".";
  const facts: string[] = [];
  const priority = data.get("priorityLabel").str();
  if (priority !== "No priority") facts.push(`Priority: ${priority}`);
  if (data.opt("assignee").exists()) facts.push(`Assignee: ${data.get("assignee").get("name").str()}`);
  facts.push(`Status: ${data.get("state").get("name").str()}`);
  return `${message}\n${facts.join(", ")}.`;
}

/** A comment added, edited or removed. */
function commentMessage(payload: Payload): string {
  const data = payload.get("data");
  const user = data.get("user").get("name").str();
  const action = payload.get("action").str();
  if (action === "remove") return `${user} has removed a comment.`;
  const verb = action === "create" ? "commented" : "updated comment";
  const issue = data.get("issue").get("title").str();
  return `${user} [${verb}](${payload.get("url").str()}) on issue **${issue}**:${quoted(data.get("body").str())}`.trimEnd();
}

/**
 * Linear (https://zulip.com/integrations/doc/linear; Zulip's
 * `api_linear_webhook`): issues and sub-issues (an issue with a parent)
 * created/updated/removed, topic `Issue: <title>` or `Sub-Issue: <title>`
 * (titles over 50 characters cut and marked `...`);
 * comments, topic `Issue: <issue title>`. Event types `issue`,
 * `sub_issue`, `comment`. Labels, projects, project updates, cycles and
 * reactions are ignored; other object types are unsupported
 * (`<type>:<action>`).
 */
export const linearIntegration: Integration = {
  name: "linear",
  displayName: "Linear",
  handle(request): WebhookResult {
    const payload = jsonPayload(request);
    const type = payload.get("type").str();
    if (type === "Issue") {
      const data = payload.get("data");
      const isSub = data.opt("parentId").exists();
      const eventType = isSub ? "sub_issue" : "issue";
      const kind = isSub ? "Sub-Issue" : "Issue";
      return singleMessage(eventType, issueTopic(kind, data.get("title").str()), issueMessage(payload, kind));
    }
    if (type === "Comment") {
      const topic = issueTopic("Issue", payload.get("data").get("issue").get("title").str());
      return singleMessage("comment", topic, commentMessage(payload));
    }
    if (IGNORED_TYPES.includes(type)) return { kind: "ignored", eventType: null };
    return { kind: "unsupported", eventType: `${type}:${payload.opt("action").strOr("???")}` };
  },
};
