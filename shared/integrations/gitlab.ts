/**
 * GitLab (https://zulip.com/integrations/doc/gitlab). The event is the
 * `X-Gitlab-Event` header, refined as Zulip does: issue, merge request and
 * wiki events by their `object_attributes.action` (`Merge Request Hook
 * open`), comments by what they comment on (`Note Hook Issue`); a `System
 * Hook` delivery is named by its `event_name`/`object_kind` (`push` →
 * `Push Hook`). Topics: `project / branch` for pushes, jobs and
 * pipelines, `project / Issue #N title`, `project / MR #N title` (without
 * the title when `use_merge_request_title=false`), `project / Snippet #N
 * title`, or the project's name. Facts from Zulip's
 * `zerver/webhooks/gitlab/view.py`.
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
  gitRefName,
  gitTagMessage,
} from "./git.js";
import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

interface Ctx {
  p: Payload;
  includeTitle: boolean;
}

const projectName = (p: Payload) => p.get("project").get("name").str();
const actorName = (p: Payload) => p.get("user").get("name").str();

/** Descriptions may hold HTML comments (issue templates): they are not shown. */
function visibleDescription(text: string | null): string | null {
  return text === null ? null : text.replace(/<!--[\s\S]*?-->/g, "").trimEnd();
}

function assigneeNames(p: Payload): string[] {
  const assignees = p.opt("assignees");
  // GitLab may list one person twice (assignee and assignees): name each once.
  if (assignees.exists()) return [...new Set(assignees.list().map((a) => a.get("name").str()))];
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
  const compareUrl = `${p.get("project").get("web_url").str()}/-/compare/${p.get("before").str()}...${after}`;
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
      kind: "Issue",
      number: attrs.get("iid").num(),
      url: attrs.get("url").str(),
      title: includeTitle ? attrs.get("title").str() : null,
      assignees: opened ? assigneeNames(p) : [],
      body: opened ? visibleDescription(attrs.opt("description").strOr(null)) : null,
    });
  };
}

function mergeRequest(action: string, detailed: boolean): (ctx: Ctx) => string {
  return ({ p, includeTitle }) => {
    const attrs = p.get("object_attributes");
    return gitItemMessage({
      user: actorName(p),
      action,
      kind: "MR",
      number: attrs.get("iid").num(),
      url: attrs.get("url").str(),
      title: includeTitle ? attrs.get("title").str() : null,
      assignees: detailed ? assigneeNames(p) : [],
      fromBranch: detailed ? attrs.get("source_branch").str() : null,
      toBranch: detailed ? attrs.get("target_branch").str() : null,
      body: detailed ? visibleDescription(attrs.opt("description").strOr(null)) : null,
    });
  };
}

/** An update that carries `oldrev` added commits; any other is an edit. */
function mergeRequestUpdated(ctx: Ctx): string {
  const addedCommits = ctx.p.get("object_attributes").opt("oldrev").exists();
  return addedCommits ? mergeRequest("added commit(s) to", false)(ctx) : mergeRequest("updated", true)(ctx);
}

function noteOn(kind: "Issue" | "MR" | "Snippet", key: "issue" | "merge_request" | "snippet", path: string) {
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

function statusPhrase(status: string, createdWord: string): string {
  if (status === createdWord) return "was created";
  if (status === "running") return "started";
  return `changed status to ${status}`;
}

function job({ p }: Ctx): string {
  const phrase = statusPhrase(p.get("build_status").str(), "created");
  return `Build ${p.get("build_name").str()} from the ${p.get("build_stage").str()} stage ${phrase}.`;
}

function pipeline({ p }: Ctx): string {
  const attrs = p.get("object_attributes");
  const web = p.get("project").get("web_url").str();
  const id = attrs.get("id").num();
  const builds = p.get("builds").list().map((b) => `* [${b.get("name").str()}](${web}/-/jobs/${b.get("id").num()}) - ${b.get("status").str()}`);
  const head = `[Pipeline (#${id})](${web}/-/pipelines/${id}) ${statusPhrase(attrs.get("status").str(), "pending")}`;
  return builds.length > 0 ? `${head} with build(s):\n${builds.join("\n")}` : `${head}.`;
}

function testHook({ p }: Ctx): string {
  return `The webhook for **${projectName(p)}** is set up. :tada:`;
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
  "Note Hook Issue": noteOn("Issue", "issue", "-/issues"),
  "Confidential Note Hook Issue": noteOn("Issue", "issue", "-/issues"),
  "Note Hook Snippet": noteOn("Snippet", "snippet", "-/snippets"),
  "Merge Request Hook open": mergeRequest("created", true),
  "Merge Request Hook update": mergeRequestUpdated,
  "Merge Request Hook merge": mergeRequest("merged", false),
  "Merge Request Hook close": mergeRequest("closed", false),
  "Merge Request Hook reopen": mergeRequest("reopened", false),
  "Merge Request Hook approved": mergeRequest("approved", false),
  "Merge Request Hook unapproved": mergeRequest("unapproved", false),
  "Merge Request Hook approval": mergeRequest("added their approval to", false),
  "Merge Request Hook unapproval": mergeRequest("removed their approval from", false),
  "Wiki Page Hook create": wikiPage("created"),
  "Wiki Page Hook update": wikiPage("updated"),
  "Job Hook": job,
  "Build Hook": job,
  "Pipeline Hook": pipeline,
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
    return `${event} ${p.get("object_attributes").get("action").str()}`;
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
    return itemTopic("Issue", attrs.get("iid").num(), attrs.get("title").str());
  }
  if (event.endsWith("Note Hook Issue")) return itemTopic("Issue", p.get("issue").get("iid").num(), p.get("issue").get("title").str());
  if (event === "Note Hook MergeRequest") {
    const mr = p.get("merge_request");
    return itemTopic("MR", mr.get("iid").num(), mrTitle(mr.get("title").str()));
  }
  if (event === "Note Hook Snippet") return itemTopic("Snippet", p.get("snippet").get("id").num(), p.get("snippet").get("title").str());
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
  const content = body({ p, includeTitle: gitIncludeTitle(request) });
  return { kind: "messages", eventType: event, messages: [{ topic: topicOf(event, p, request), content }] };
}

/** The GitLab integration: `/api/v1/external/gitlab`. */
export const gitlabIntegration: Integration = {
  name: "gitlab",
  displayName: "GitLab",
  handle: handleGitLab,
};
