/**
 * Gogs (https://zulip.com/integrations/doc/gogs), and the delivery
 * handling Gitea shares with it (Gitea is a fork of Gogs and posts the
 * same payloads under `X-Gitea-Event`; only pull requests differ, see
 * `gitea.ts`). Events: `push` (filtered by `branches`), `create`,
 * `pull_request`, `issues`, `issue_comment`, `release`; any other is
 * unsupported. Topics: `repo / branch`, `repo / PR #N title`, `repo /
 * issue #N title`, `repo / tag name`. Facts from Zulip's
 * `zerver/webhooks/gogs/view.py`.
 */
import {
  gitBranchCreatedMessage,
  gitBranchTopic,
  gitBranchWanted,
  gitEventHeader,
  gitIncludeTitle,
  gitItemMessage,
  gitItemTopic,
  gitPushMessage,
  gitRefName,
  gitReleaseMessage,
  gitReleaseTopic,
} from "./git.js";
import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** Words a pull request delivery: the one part where Gogs and Gitea payloads differ. */
export type GogsPullRequestFormatter = (p: Payload, includeTitle: boolean) => string;

/** Who a delivery names as its actor: `login` (Gitea, Gogs) or `username` (older Gogs). */
function login(user: Payload): string {
  return user.opt("login").strOr(null) ?? user.get("username").str();
}

function push(p: Payload): string {
  const commits = p.get("commits").list().map((c) => {
    const author = c.get("author");
    // Gogs leaves `username` empty for authors without an account: name them by their first name.
    const username = author.opt("username").strOr("");
    return {
      sha: c.get("id").str(),
      url: c.get("url").str(),
      message: c.get("message").str(),
      author: username || author.get("name").str().split(/\s+/)[0]!,
    };
  });
  return gitPushMessage({
    user: p.get("sender").get("username").str(),
    branch: gitRefName(p.get("ref").str()),
    compareUrl: p.get("compare_url").strOr(null) || null,
    commits,
  });
}

function issueUrl(p: Payload, number: number): string {
  return `${p.get("repository").get("html_url").str()}/issues/${number}`;
}

function issue(p: Payload, includeTitle: boolean): string {
  const item = p.get("issue");
  const number = item.get("number").num();
  const assignee = item.opt("assignee");
  return gitItemMessage({
    user: login(p.get("sender")),
    action: p.get("action").str(),
    kind: "Issue",
    number,
    url: issueUrl(p, number),
    title: includeTitle ? item.get("title").str() : null,
    assignees: assignee.exists() ? [login(assignee)] : [],
    body: item.get("body").str(),
  });
}

function issueComment(p: Payload, includeTitle: boolean): string {
  const item = p.get("issue");
  const comment = p.get("comment");
  const number = item.get("number").num();
  const action = p.get("action").str();
  const url = comment.get("html_url").str();
  return gitItemMessage({
    user: login(p.get("sender")),
    action: action === "created" ? `[commented](${url}) on` : `${action} a [comment](${url}) on`,
    kind: "Issue",
    number,
    url: issueUrl(p, number),
    title: includeTitle ? item.get("title").str() : null,
    body: comment.get("body").str(),
  });
}

function release(p: Payload): string {
  const rel = p.get("release");
  // Gogs releases carry no link of their own: link the repository.
  const url = rel.opt("html_url").strOr(null) ?? p.get("repository").get("html_url").str();
  return gitReleaseMessage(login(rel.get("author")), p.get("action").str(), rel.get("tag_name").str(), rel.get("name").str(), url);
}

/** A Gogs pull request: merged (by whom), or the action of its author; branches unless edited. */
function gogsPullRequest(p: Payload, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  const merged = pr.get("merged").bool();
  const action = merged ? "merged" : p.get("action").str();
  return gitItemMessage({
    user: login(pr.get(merged ? "merged_by" : "user")),
    action,
    kind: "PR",
    number: pr.get("number").num(),
    url: pr.get("html_url").str(),
    title: includeTitle ? pr.get("title").str() : null,
    fromBranch: action === "edited" ? null : pr.get("head_branch").str(),
    toBranch: action === "edited" ? null : pr.get("base_branch").str(),
  });
}

/**
 * The handler of a Gogs-style sender (Zulip's `gogs_webhook_main`): the
 * event from `header`, pull requests worded by `pullRequest`.
 */
export function gogsFamilyHandler(header: string, pullRequest: GogsPullRequestFormatter): (request: WebhookRequest) => WebhookResult {
  return (request) => {
    const event = gitEventHeader(request, header);
    const p = jsonPayload(request);
    const includeTitle = gitIncludeTitle(request);
    const one = (topic: string, content: string): WebhookResult => ({ kind: "messages", eventType: event, messages: [{ topic, content }] });
    const repo = () => p.get("repository").get("name").str();
    switch (event) {
      case "push": {
        const branch = gitRefName(p.get("ref").str());
        if (!gitBranchWanted(request, branch)) return { kind: "ignored", eventType: event };
        return one(gitBranchTopic(repo(), branch), push(p));
      }
      case "create": {
        const branch = p.get("ref").str();
        const url = `${p.get("repository").get("html_url").str()}/src/${branch}`;
        return one(gitBranchTopic(repo(), branch), gitBranchCreatedMessage(login(p.get("sender")), branch, url));
      }
      case "pull_request": {
        // Zulip names the topic by the pull request's `id` (the server-wide one), while the message
        // links and shows its `number` in the repository; the two differ on any shared server.
        const pr = p.get("pull_request");
        return one(gitItemTopic(repo(), "PR", pr.get("id").num(), pr.get("title").str()), pullRequest(p, includeTitle));
      }
      case "issues":
      case "issue_comment": {
        const item = p.get("issue");
        const content = event === "issues" ? issue(p, includeTitle) : issueComment(p, includeTitle);
        return one(gitItemTopic(repo(), "issue", item.get("number").num(), item.get("title").str()), content);
      }
      case "release": {
        const rel = p.get("release");
        return one(gitReleaseTopic(repo(), rel.get("tag_name").str(), rel.get("name").str()), release(p));
      }
    }
    return { kind: "unsupported", eventType: event };
  };
}

/** The Gogs integration: `/api/v1/external/gogs`. */
export const gogsIntegration: Integration = {
  name: "gogs",
  displayName: "Gogs",
  handle: gogsFamilyHandler("X-Gogs-Event", gogsPullRequest),
};
