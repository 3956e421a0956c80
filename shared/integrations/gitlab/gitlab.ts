/**
 * GitLab (https://zulip.com/integrations/doc/gitlab). The event is the
 * `X-Gitlab-Event` header, refined as Zulip does: issue, merge request and
 * wiki events by their `object_attributes.action` (`Merge Request Hook
 * open`), comments by what they comment on (`Note Hook Issue`); a `System
 * Hook` delivery is named by its `event_name`/`object_kind` (`push` →
 * `Push Hook`). Topics: `project / branch` for pushes, jobs and
 * pipelines, `project / environment` for deployments, `project / issue #N
 * title`, `project / MR #N title` (without the title when
 * `use_merge_request_title=false`), `project / snippet #N title`,
 * `project / design name`, or the project's name. Under a `topic` of the
 * sender's choosing, messages start with a link to the project. Facts from
 * Zulip's `zerver/webhooks/gitlab/view.py`.
 */
import {
  GIT_EMPTY_SHA,
  gitBranchTopic,
  gitBranchWanted,
  gitCommitCommentMessage,
  gitEventHeader,
  gitIncludeTitle,
  gitItemMessage,
  gitItemTopic,
  gitPushMessage,
  gitQuote,
  gitRefName,
  gitTagMessage,
} from "../git.js";
import { jsonPayload, type Payload } from "../payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "../types.js";
import { gitlabAccessTokenExpiry, gitlabDeployment, gitlabFeatureFlag, gitlabJob, gitlabPipeline, gitlabProjectUrl, gitlabRelease } from "./ops.js";

interface Ctx {
  p: Payload;
  includeTitle: boolean;
}

/** The project's name (job payloads carry only `repository`). */
const projectName = (p: Payload) => (p.opt("project").exists() ? p.get("project") : p.get("repository")).get("name").str();
const actorName = (p: Payload) => p.get("user").get("name").str();

/** Descriptions may hold HTML comments (issue templates): they are not shown. */
function visibleDescription(text: string | null): string | null {
  return text === null ? null : text.replace(/<!--[\s\S]*?-->/g, "").trimEnd();
}

function assigneeNames(p: Payload): string[] {
  const assignees = p.opt("assignees");
  // Every entry is named, as in Zulip's messages, even when GitLab lists one person twice.
  if (assignees.exists()) return assignees.list().map((a) => a.get("name").str());
  const single = p.opt("assignee");
  return single.exists() ? [single.get("name").str()] : [];
}

function push({ p }: Ctx): string {
  const user = p.get("user_name").str();
  const branch = gitRefName(p.get("ref").str());
  const after = p.get("after").str();
  if (after === GIT_EMPTY_SHA) return `${user} deleted branch ${branch}.`;
  const commits = p.get("commits").list().map((c) => ({
    sha: c.get("id").str(),
    url: c.get("url").str(),
    message: c.get("message").str(),
    author: c.get("author").get("name").str(),
  }));
  const compareUrl = `${gitlabProjectUrl(p)}/-/compare/${p.get("before").str()}...${after}`;
  // GitLab lists at most 20 commits; `total_commits_count` counts them all.
  const total = p.opt("total_commits_count").numOr(0);
  return gitPushMessage({ user, branch, compareUrl, commits, total });
}

function tagPush({ p }: Ctx): string {
  const pushed = p.opt("checkout_sha").exists();
  return gitTagMessage(p.get("user_name").str(), gitRefName(p.get("ref").str()), null, pushed ? "pushed" : "removed");
}

function issue(action: string | null): (ctx: Ctx) => string {
  return ({ p, includeTitle }) => {
    const attrs = p.get("object_attributes");
    const opened = action === null;
    return gitItemMessage({
      user: actorName(p),
      action: action ?? "created",
      kind: "issue",
      number: attrs.get("iid").num(),
      url: attrs.get("url").str(),
      title: includeTitle ? attrs.get("title").str() : null,
      assignees: opened ? assigneeNames(p) : [],
      body: opened ? visibleDescription(attrs.opt("description").strOr(null)) : null,
    });
  };
}

/**
 * A merge request event: created (branches, assignees, description),
 * updated (assignees, description), merged (branches), or a bare action.
 */
function mergeRequest(action: string): (ctx: Ctx) => string {
  return ({ p, includeTitle }) => {
    const attrs = p.get("object_attributes");
    const branches = action === "created" || action === "merged";
    const detailed = action === "created" || action === "updated";
    return gitItemMessage({
      user: actorName(p),
      action,
      kind: "MR",
      number: attrs.get("iid").num(),
      url: attrs.get("url").str(),
      title: includeTitle ? attrs.get("title").str() : null,
      assignees: detailed ? assigneeNames(p) : [],
      fromBranch: branches ? attrs.get("source_branch").str() : null,
      toBranch: branches ? attrs.get("target_branch").str() : null,
      body: detailed ? attrs.opt("description").strOr(null) : null,
    });
  };
}

/** An update that carries `oldrev` added commits; any other is an edit. */
function mergeRequestUpdated(ctx: Ctx): string {
  const addedCommits = ctx.p.get("object_attributes").opt("oldrev").exists();
  return mergeRequest(addedCommits ? "added commit(s) to" : "updated")(ctx);
}

function noteOn(kind: "issue" | "MR" | "snippet", key: "issue" | "merge_request" | "snippet", path: string) {
  return ({ p, includeTitle }: Ctx): string => {
    const comment = p.get("object_attributes");
    const item = p.get(key);
    const id = key === "snippet" ? item.get("id").num() : item.get("iid").num();
    const url = item.opt("url").strOr(null) ?? `${p.get("project").get("web_url").str()}/${path}/${id}`;
    return gitItemMessage({
      user: actorName(p),
      action: `[commented](${comment.get("url").str()}) on`,
      kind,
      number: id,
      url,
      title: includeTitle ? item.get("title").str() : null,
      body: comment.get("note").str(),
    });
  };
}

function commitNote({ p }: Ctx): string {
  const comment = p.get("object_attributes");
  const commit = p.get("commit");
  const action = `[commented](${comment.get("url").str()})`;
  return gitCommitCommentMessage(actorName(p), action, commit.get("url").str(), commit.get("id").str(), comment.get("note").str());
}

function wikiPage(action: string): (ctx: Ctx) => string {
  return ({ p }) => {
    const attrs = p.get("object_attributes");
    return `${actorName(p)} ${action} [wiki page "${attrs.get("title").str()}"](${attrs.get("url").str()}).`;
  };
}

/** A comment on an issue's design (an uploaded image): the design is named from the comment's position. */
function designNote({ p }: Ctx): string {
  const comment = p.get("object_attributes");
  const [, issuePart = "", design = ""] = comment.get("position").get("new_path").str().split("/");
  const designUrl = `${p.get("repository").get("homepage").str()}/-/issues/${issuePart.split("-").pop()}/designs/${design}`;
  const commentUrl = `${designUrl}#note_${comment.get("id").num()}`;
  return `${actorName(p)} [commented](${commentUrl}) on design [${design}](${designUrl}):\n\n${gitQuote(comment.get("note").str())}`;
}

function testHook({ p }: Ctx): string {
  return `Webhook for **${projectName(p)}** has been configured successfully! :tada:`;
}

const BODIES: Record<string, (ctx: Ctx) => string> = {
  "Push Hook": push,
  "Tag Push Hook": tagPush,
  "Test Hook": testHook,
  "Issue Hook open": issue(null),
  "Issue Hook close": issue("closed"),
  "Issue Hook reopen": issue("reopened"),
  "Issue Hook update": issue("updated"),
  "Confidential Issue Hook open": issue(null),
  "Confidential Issue Hook close": issue("closed"),
  "Confidential Issue Hook reopen": issue("reopened"),
  "Confidential Issue Hook update": issue("updated"),
  "Note Hook Commit": commitNote,
  "Note Hook MergeRequest": noteOn("MR", "merge_request", "-/merge_requests"),
  "Note Hook Issue": noteOn("issue", "issue", "-/issues"),
  "Confidential Note Hook Issue": noteOn("issue", "issue", "-/issues"),
  "Note Hook Snippet": noteOn("snippet", "snippet", "-/snippets"),
  "Note Hook DesignManagement::Design": designNote,
  "Confidential Note Hook DesignManagement::Design": designNote,
  "Merge Request Hook open": mergeRequest("created"),
  "Merge Request Hook update": mergeRequestUpdated,
  "Merge Request Hook merge": mergeRequest("merged"),
  "Merge Request Hook close": mergeRequest("closed"),
  "Merge Request Hook reopen": mergeRequest("reopened"),
  "Merge Request Hook approved": mergeRequest("approved"),
  "Merge Request Hook unapproved": mergeRequest("unapproved"),
  // Sent only when a merge request needs several approvals.
  "Merge Request Hook approval": mergeRequest("added their approval to"),
  "Merge Request Hook unapproval": mergeRequest("withdrew their approval from"),
  "Wiki Page Hook create": wikiPage("created"),
  "Wiki Page Hook update": wikiPage("updated"),
  "Job Hook": ({ p }) => gitlabJob(p),
  "Build Hook": ({ p }) => gitlabJob(p),
  "Pipeline Hook": ({ p }) => gitlabPipeline(p),
  "Release Hook": ({ p }) => gitlabRelease(p),
  "Feature Flag Hook": ({ p }) => gitlabFeatureFlag(p),
  "Resource Access Token Hook": ({ p }) => gitlabAccessTokenExpiry(p),
  "Deployment Hook": ({ p }) => gitlabDeployment(p),
};

/** `merge_request` → `Merge Request Hook`: a system hook named as the project hook it mirrors. */
function systemHookEvent(p: Payload): string {
  const name = p.opt("event_name").strOr(null) ?? p.get("object_kind").str();
  const words = name.split("__")[0]!.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `${words.join(" ")} Hook`;
}

function eventName(header: string, p: Payload): string {
  const event = header === "System Hook" ? systemHookEvent(p) : header;
  if (["Issue Hook", "Confidential Issue Hook", "Merge Request Hook", "Wiki Page Hook"].includes(event)) {
    // GitLab leaves `action` out of some issue deliveries: those open the issue.
    return `${event} ${p.get("object_attributes").opt("action").strOr("open")}`;
  }
  if (event === "Note Hook" || event === "Confidential Note Hook") {
    return `${event} ${p.get("object_attributes").get("noteable_type").str()}`;
  }
  return event;
}

function topicOf(event: string, p: Payload, request: WebhookRequest): string {
  const mrTitle = (title: string) => (request.query["use_merge_request_title"] === "false" ? null : title);
  const itemTopic = (kind: string, id: number, title: string | null) =>
    title === null ? `${projectName(p)} / ${kind} #${id}` : gitItemTopic(projectName(p), kind, id, title);
  if (event === "Push Hook") return gitBranchTopic(projectName(p), gitRefName(p.get("ref").str()));
  if (event === "Job Hook" || event === "Build Hook") {
    return gitBranchTopic(p.get("repository").get("name").str(), gitRefName(p.get("ref").str()));
  }
  if (event === "Pipeline Hook") return gitBranchTopic(projectName(p), gitRefName(p.get("object_attributes").get("ref").str()));
  if (event.startsWith("Merge Request Hook")) {
    const attrs = p.get("object_attributes");
    return itemTopic("MR", attrs.get("iid").num(), mrTitle(attrs.get("title").str()));
  }
  if (event.startsWith("Issue Hook") || event.startsWith("Confidential Issue Hook")) {
    const attrs = p.get("object_attributes");
    return itemTopic("issue", attrs.get("iid").num(), attrs.get("title").str());
  }
  if (event.endsWith("Note Hook Issue")) return itemTopic("issue", p.get("issue").get("iid").num(), p.get("issue").get("title").str());
  if (event.endsWith("Note Hook DesignManagement::Design")) {
    const design = p.get("object_attributes").get("position").get("new_path").str().split("/").pop();
    return `${projectName(p)} / design ${design}`;
  }
  if (event === "Note Hook MergeRequest") {
    const mr = p.get("merge_request");
    return itemTopic("MR", mr.get("iid").num(), mrTitle(mr.get("title").str()));
  }
  if (event === "Note Hook Snippet") return itemTopic("snippet", p.get("snippet").get("id").num(), p.get("snippet").get("title").str());
  if (event === "Resource Access Token Hook" && p.opt("group").exists()) return p.get("group").get("group_name").str();
  if (event === "Deployment Hook") return gitBranchTopic(projectName(p), p.get("environment").str());
  return projectName(p);
}

function handleGitLab(request: WebhookRequest): WebhookResult {
  const header = gitEventHeader(request, "X-Gitlab-Event");
  const p = jsonPayload(request);
  const event = eventName(header, p);
  const body = BODIES[event];
  if (body === undefined) return { kind: "unsupported", eventType: event };
  if (event === "Push Hook" && !gitBranchWanted(request, gitRefName(p.get("ref").str()))) {
    return { kind: "ignored", eventType: event };
  }
  const includeTitle = gitIncludeTitle(request);
  let content = body({ p, includeTitle });
  // Under a topic of the sender's choosing, say which project the message is about.
  if (includeTitle) content = `[[${projectName(p)}](${gitlabProjectUrl(p)})] ${content}`;
  return { kind: "messages", eventType: event, messages: [{ topic: topicOf(event, p, request), content }] };
}

/** The GitLab integration: `/api/v1/external/gitlab`. */
export const gitlabIntegration: Integration = {
  name: "gitlab",
  displayName: "GitLab",
  handle: handleGitLab,
};
