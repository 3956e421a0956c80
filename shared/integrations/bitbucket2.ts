/**
 * Bitbucket Cloud (https://zulip.com/integrations/doc/bitbucket2). As in
 * Zulip, the event is read from the payload's shape (`push`, `fork`,
 * `commit_status`, `issue`, ...); only pull request events need the
 * `X-Event-Key` header (`pullrequest:approved` → `pull_request_approved`),
 * and `repo:updated`. A push posts one message per changed ref, topic
 * `repo / branch` (tags: the repository's name); `branches` drops changes
 * of other branches. Pull requests and issues: `repo / PR #N title`,
 * `repo / issue #N title`. Facts from Zulip's
 * `zerver/webhooks/bitbucket2/view.py`.
 */
import {
  gitBranchDeletedMessage,
  gitBranchTopic,
  gitBranchWanted,
  gitCommitCommentMessage,
  gitEventHeader,
  gitForcePushMessage,
  gitIncludeTitle,
  gitItemMessage,
  gitItemTopic,
  gitPushMessage,
  gitShortSha,
  gitTagMessage,
} from "./git.js";
import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookMessage, WebhookRequest, WebhookResult } from "./types.js";

/**
 * A person as Bitbucket Cloud names them: `display_name`, else `nickname`
 * (Bitbucket stopped sending usernames for privacy), else "Unknown user".
 */
function personName(user: Payload): string {
  if (!user.exists()) return "Unknown user";
  return user.opt("display_name").strOr(null) ?? user.opt("nickname").strOr(null) ?? "Unknown user";
}

const actor = (p: Payload) => personName(p.opt("actor"));
const repoName = (p: Payload) => p.get("repository").get("name").str();
const htmlLink = (x: Payload) => x.get("links").get("html").get("href").str();

/** The ref a push change is about: its new state, or the old one when it was deleted. */
function changedRef(change: Payload): Payload {
  const created = change.opt("new");
  return created.exists() ? created : change.get("old");
}

function pushChangeMessage(p: Payload, change: Payload): WebhookMessage {
  const ref = changedRef(change);
  const name = ref.get("name").str();
  if (ref.get("type").str() === "tag") {
    const pushed = change.opt("new").exists();
    return { topic: repoName(p), content: gitTagMessage(actor(p), name, htmlLink(ref), pushed ? "pushed" : "removed") };
  }
  const topic = gitBranchTopic(repoName(p), name);
  if (!change.opt("new").exists()) return { topic, content: gitBranchDeletedMessage(actor(p), name) };
  if (change.get("forced").bool()) {
    return { topic, content: gitForcePushMessage(actor(p), htmlLink(change), name, change.get("new").get("target").get("hash").str()) };
  }
  const commits = change.get("commits").list().map((c) => {
    const author = c.get("author");
    return {
      sha: c.get("hash").str(),
      url: htmlLink(c),
      message: c.get("message").str(),
      // Authors without a Bitbucket account are known by their Git identity: its first word.
      author: author.opt("user").exists() ? personName(author.get("user")) : author.get("raw").str().split(/\s+/)[0]!,
    };
  });
  const content = gitPushMessage({ user: actor(p), branch: name, compareUrl: htmlLink(change), commits, truncated: change.get("truncated").bool() });
  return { topic, content };
}

/** One message per changed ref; branch changes outside `branches` are left out. */
function pushMessages(request: WebhookRequest, p: Payload): WebhookMessage[] {
  const wanted = p.get("push").get("changes").list().filter((change) => {
    const ref = changedRef(change);
    return ref.get("type").str() === "tag" || gitBranchWanted(request, ref.get("name").str());
  });
  return wanted.map((change) => pushChangeMessage(p, change));
}

type Body = (p: Payload, includeTitle: boolean) => string;

function issueBody(action: string): Body {
  return (p, includeTitle) => {
    const issue = p.get("issue");
    const created = action === "created";
    const assignee = issue.opt("assignee");
    return gitItemMessage({
      user: actor(p),
      action,
      kind: "issue",
      number: issue.get("id").num(),
      url: htmlLink(issue),
      title: includeTitle ? issue.get("title").str() : null,
      assignees: created && assignee.exists() ? [personName(assignee)] : [],
      body: created ? issue.get("content").get("raw").str() : null,
    });
  };
}

function issueCommented(p: Payload, includeTitle: boolean): string {
  return issueBody(`[commented](${htmlLink(p.get("comment"))}) on`)(p, includeTitle);
}

/** A pull request created or updated: description quoted, first reviewer named, branches when created. */
function prCreatedOrUpdated(action: "created" | "updated"): Body {
  return (p, includeTitle) => {
    const pr = p.get("pullrequest");
    const reviewers = pr.opt("reviewers").exists() ? pr.get("reviewers").list() : [];
    const created = action === "created";
    return gitItemMessage({
      user: actor(p),
      action,
      kind: "PR",
      number: pr.get("id").num(),
      url: htmlLink(pr),
      title: includeTitle ? pr.get("title").str() : null,
      assignees: reviewers.length > 0 ? [personName(reviewers[0]!)] : [],
      fromBranch: created ? pr.get("source").get("branch").get("name").str() : null,
      toBranch: created ? pr.get("destination").get("branch").get("name").str() : null,
      body: pr.get("description").str(),
    });
  };
}

/** Approved, unapproved, rejected or merged; a merge names its branches. */
function prAction(action: string): Body {
  return (p, includeTitle) => {
    const pr = p.get("pullrequest");
    const merged = action === "merged";
    return gitItemMessage({
      user: actor(p),
      action,
      kind: "PR",
      number: pr.get("id").num(),
      url: htmlLink(pr),
      title: includeTitle ? pr.get("title").str() : null,
      fromBranch: merged ? pr.get("source").get("branch").get("name").str() : null,
      toBranch: merged ? pr.get("destination").get("branch").get("name").str() : null,
    });
  };
}

function prComment(verb: "created" | "updated" | "deleted"): Body {
  return (p, includeTitle) => {
    const pr = p.get("pullrequest");
    const link = htmlLink(p.get("comment"));
    return gitItemMessage({
      user: actor(p),
      action: verb === "created" ? `[commented](${link}) on` : `${verb} a [comment](${link}) on`,
      kind: "PR",
      number: pr.get("id").num(),
      url: htmlLink(pr),
      title: includeTitle ? pr.get("title").str() : null,
      body: p.get("comment").get("content").get("raw").str(),
    });
  };
}

function fork(p: Payload): string {
  const f = p.get("fork");
  return `${actor(p)} forked the repository into [${f.get("full_name").str()}](${htmlLink(f)}).`;
}

function commitComment(p: Payload): string {
  const comment = p.get("comment");
  const commit = comment.get("commit");
  return gitCommitCommentMessage(actor(p), `[commented](${htmlLink(comment)})`, htmlLink(commit), commit.get("hash").str(), comment.get("content").get("raw").str());
}

function commitStatus(p: Payload): string {
  const status = p.get("commit_status");
  const sha = status.get("links").get("commit").get("href").str().split("/").pop()!;
  const commit = `[${gitShortSha(sha)}](${htmlLink(p.get("repository"))}/commits/${sha})`;
  return `[System ${status.get("key").str()}](${status.get("url").str()}) changed status of ${commit} to ${status.get("state").str()}.`;
}

const REPO_FIELDS: [string, string][] = [
  ["website", "website"],
  ["name", "name"],
  ["links", "links"],
  ["language", "language"],
  ["full_name", "full name"],
  ["description", "description"],
];

/** Whether a changed value says something: not null, not empty (as Bitbucket sends `""` and `{}` for "none"). */
function meaningful(v: Payload): boolean {
  if (!v.exists() || v.value === "") return false;
  return typeof v.value !== "object" || v.value === null || Object.keys(v.value).length > 0;
}

/** Repository settings changed: one line per field that has a new value. */
function repoUpdated(p: Payload): string {
  const changes = p.get("changes");
  const lines: string[] = [];
  const shown = (v: Payload) => (typeof v.value === "string" ? v.value : JSON.stringify(v.value));
  for (const [key, label] of REPO_FIELDS) {
    const change = changes.opt(key);
    if (!change.exists() || !meaningful(change.opt("new"))) continue;
    const next = shown(change.get("new"));
    const from = meaningful(change.opt("old")) ? ` from **${shown(change.get("old"))}**` : "";
    const stop = /[!-/:-@[-`{-~]$/.test(next) ? "" : ".";
    lines.push(`${actor(p)} changed the ${label} of the **${repoName(p)}** repo${from} to **${next}**${stop}`);
  }
  return lines.join("\n");
}

const BODIES: Record<string, Body> = {
  fork,
  commit_comment: commitComment,
  change_commit_status: commitStatus,
  issue_created: issueBody("created"),
  issue_updated: issueBody("updated"),
  issue_commented: issueCommented,
  pull_request_created: prCreatedOrUpdated("created"),
  pull_request_updated: prCreatedOrUpdated("updated"),
  pull_request_approved: prAction("approved"),
  pull_request_unapproved: prAction("unapproved"),
  pull_request_fulfilled: prAction("merged"),
  pull_request_rejected: prAction("rejected"),
  pull_request_comment_created: prComment("created"),
  pull_request_comment_updated: prComment("updated"),
  pull_request_comment_deleted: prComment("deleted"),
  "repo:updated": repoUpdated,
};

/** The event named from the payload's shape, or from `X-Event-Key` for pull requests (Zulip's `get_type`). */
function eventOf(request: WebhookRequest, p: Payload): { event: string } | { unsupported: string } {
  const has = (key: string) => p.opt(key).exists();
  if (has("push")) return { event: "push" };
  if (has("fork")) return { event: "fork" };
  if (has("comment") && has("commit")) return { event: "commit_comment" };
  if (has("commit_status")) return { event: "change_commit_status" };
  if (has("issue")) return { event: has("changes") ? "issue_updated" : has("comment") ? "issue_commented" : "issue_created" };
  const key = gitEventHeader(request, "X-Event-Key");
  if (has("pullrequest")) {
    const action = /^pullrequest:(.*)$/.exec(key)?.[1];
    if (action !== undefined && Object.hasOwn(BODIES, `pull_request_${action}`)) return { event: `pull_request_${action}` };
  } else if (key === "repo:updated") {
    return { event: key };
  }
  return { unsupported: key };
}

function handleBitbucket2(request: WebhookRequest): WebhookResult {
  const p = jsonPayload(request);
  const named = eventOf(request, p);
  if ("unsupported" in named) return { kind: "unsupported", eventType: named.unsupported };
  const { event } = named;
  if (event === "push") {
    const messages = pushMessages(request, p);
    return messages.length === 0 ? { kind: "ignored", eventType: event } : { kind: "messages", eventType: event, messages };
  }
  let topic = repoName(p);
  if (event.startsWith("pull_request")) {
    const pr = p.get("pullrequest");
    topic = gitItemTopic(repoName(p), "PR", pr.get("id").num(), pr.get("title").str());
  } else if (event.startsWith("issue")) {
    const issue = p.get("issue");
    topic = gitItemTopic(repoName(p), "issue", issue.get("id").num(), issue.get("title").str());
  }
  const content = BODIES[event]!(p, gitIncludeTitle(request));
  return { kind: "messages", eventType: event, messages: [{ topic, content }] };
}

/** The Bitbucket Cloud integration: `/api/v1/external/bitbucket2`. */
export const bitbucket2Integration: Integration = {
  name: "bitbucket2",
  displayName: "Bitbucket2",
  handle: handleBitbucket2,
};
