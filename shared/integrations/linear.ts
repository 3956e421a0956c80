import { jsonPayload, type Payload } from "./payload.js";
import { quoteBlock, singleMessage } from "./format.js";
import type { Integration, WebhookResult } from "./types.js";

/** Linear object types that are deliberately not reported. */
const IGNORED_TYPES = ["IssueLabel", "Project", "ProjectUpdate", "Cycle", "Reaction"];

/** An issue or sub-issue created, updated or removed. */
function issueMessage(payload: Payload, isSub: boolean): string {
  const data = payload.get("data");
  const kind = isSub ? "Sub-issue" : "Issue";
  const number = data.get("number").num();
  const title = data.get("title").str();
  const team = data.get("team").get("name").str();
  const action = payload.get("action").str();
  if (action === "remove") return `Removed ${kind.toLowerCase()} **#${number} ${title}** (team ${team}).`;
  const verb = action === "create" ? "Created" : "Updated";
  let message = `${verb} ${kind.toLowerCase()} [#${number} ${title}](${payload.get("url").str()}) (team ${team})`;
  const description = data.opt("description").strOr("");
  message += description !== "" ? `:\n${quoteBlock(description)}` : ".";
  const facts: string[] = [];
  const priority = data.get("priorityLabel").str();
  if (priority !== "No priority") facts.push(`**Priority:** ${priority}`);
  if (data.opt("assignee").exists()) facts.push(`**Assignee:** ${data.get("assignee").get("name").str()}`);
  facts.push(`**Status:** ${data.get("state").get("name").str()}`);
  return `${message}\n${facts.join(" · ")}`;
}

/** A comment added, edited or removed. */
function commentMessage(payload: Payload): string {
  const data = payload.get("data");
  const user = data.get("user").get("name").str();
  const action = payload.get("action").str();
  if (action === "remove") return `${user} removed a comment.`;
  const verb = action === "create" ? "commented on" : "edited a comment on";
  const issue = data.get("issue").get("title").str();
  const link = `[view comment](${payload.get("url").str()})`;
  return `${user} ${verb} **${issue}** (${link}):\n${quoteBlock(data.get("body").str())}`;
}

/**
 * Linear (https://zulip.com/integrations/doc/linear; Zulip's
 * `api_linear_webhook`): issues and sub-issues (an issue with a parent)
 * created/updated/removed, topic `Issue: <title>` or `Sub-Issue: <title>`;
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
      const topic = `${isSub ? "Sub-Issue" : "Issue"}: ${data.get("title").str()}`;
      return singleMessage(eventType, topic, issueMessage(payload, isSub));
    }
    if (type === "Comment") {
      const topic = `Issue: ${payload.get("data").get("issue").get("title").str()}`;
      return singleMessage("comment", topic, commentMessage(payload));
    }
    if (IGNORED_TYPES.includes(type)) return { kind: "ignored", eventType: null };
    return { kind: "unsupported", eventType: `${type}:${payload.opt("action").strOr("???")}` };
  },
};
