/**
 * GitHub (https://zulip.com/integrations/doc/github), GitHub Sponsors
 * included. The event is the `X-GitHub-Event` header refined by the
 * payload's `action` into Zulip's event names (`opened_pull_request`,
 * `push_commits`, `issue_labeled_or_unlabeled`, ...), which is what
 * `only_events`/`exclude_events` match. Topics: `repo / branch` for
 * pushes, `repo / PR #N title` and `repo / issue #N title` for pull
 * requests and issues, `repo discussion #N: title`, `sponsors`, or the
 * repository's name. Query options: `branches` (push filter) and
 * `ignore_private_repositories`. Facts from Zulip's
 * `zerver/webhooks/github/view.py`.
 */
import { gitBranchTopic, gitBranchWanted, gitEventHeader, gitIncludeTitle, gitItemTopic, gitRefName } from "../git.js";
import { jsonPayload, type Payload } from "../payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "../types.js";
import { type GitHubContext, githubRepoName } from "./context.js";
import * as pulls from "./pulls.js";
import * as repo from "./repo.js";

type Body = (ctx: GitHubContext) => string;

const BODIES: Record<string, Body> = {
  assigned_or_unassigned_pull_request: pulls.githubPrAssignment,
  check_run: repo.githubCheckRun,
  closed_pull_request: pulls.githubPrClosed,
  commit_comment: repo.githubCommitComment,
  create: repo.githubRefCreatedOrDeleted("created"),
  delete: repo.githubRefCreatedOrDeleted("deleted"),
  deployment: repo.githubDeployment,
  deployment_status: repo.githubDeploymentStatus,
  discussion: pulls.githubDiscussion,
  discussion_comment: pulls.githubDiscussionComment,
  fork: repo.githubFork,
  gollum: repo.githubWikiPages,
  issue_comment: pulls.githubIssueComment,
  issue_labeled_or_unlabeled: pulls.githubIssueLabel,
  issue_milestoned_or_demilestoned: pulls.githubIssueMilestone,
  issues: pulls.githubIssue,
  issues_opened_via_transfer: pulls.githubIssueOpenedByTransfer,
  issues_transferred: pulls.githubIssueTransferred,
  locked_or_unlocked_pull_request: pulls.githubPrLock,
  member: repo.githubMember,
  membership: repo.githubMembership,
  opened_pull_request: pulls.githubPrOpenedOrUpdated,
  page_build: repo.githubPageBuild,
  ping: repo.githubPing,
  public: repo.githubPublic,
  pull_request_auto_merge: pulls.githubPrAutoMerge,
  pull_request_ready_for_review: pulls.githubPrReadyForReview,
  pull_request_review: pulls.githubPrReview,
  pull_request_review_comment: pulls.githubPrReviewComment,
  pull_request_review_requested: pulls.githubPrReviewRequested,
  push_commits: repo.githubPushCommits,
  push_tags: repo.githubPushTags,
  release: repo.githubRelease,
  repository: repo.githubRepository,
  star: repo.githubStar,
  status: repo.githubStatus,
  team: repo.githubTeamEdited,
  team_add: repo.githubTeamAdd,
  updated_pull_request: pulls.githubPrOpenedOrUpdated,
  watch: repo.githubWatch,
  ...repo.GITHUB_SPONSORS_BODIES,
};

/** Header events GitHub sends that Zulip deliberately does not report. */
const IGNORED_EVENTS = new Set([
  "check_suite",
  "label",
  "meta",
  "milestone",
  "organization",
  "project_card",
  "repository_vulnerability_alert",
]);

const PULL_REQUEST_EVENTS: Record<string, string | null> = {
  opened: "opened_pull_request",
  reopened: "opened_pull_request",
  synchronize: "updated_pull_request",
  edited: "updated_pull_request",
  assigned: "assigned_or_unassigned_pull_request",
  unassigned: "assigned_or_unassigned_pull_request",
  closed: "closed_pull_request",
  review_requested: "pull_request_review_requested",
  ready_for_review: "pull_request_ready_for_review",
  locked: "locked_or_unlocked_pull_request",
  unlocked: "locked_or_unlocked_pull_request",
  auto_merge_enabled: "pull_request_auto_merge",
  auto_merge_disabled: "pull_request_auto_merge",
  // Reported by other events or too noisy to report (Zulip's IGNORED_PULL_REQUEST_ACTIONS).
  approved: null,
  converted_to_draft: null,
  labeled: null,
  review_request_removed: null,
  unlabeled: null,
};

const IGNORED_TEAM_ACTIONS = new Set(["added_to_repository", "created", "deleted", "removed_from_repository"]);

/** A delivery's Zulip event name, or the name it is ignored or refused under. */
type Refined = { event: string } | { ignored: string } | { unsupported: string };

function actionOf(p: Payload): string {
  return p.get("action").str();
}

function refine(header: string, p: Payload, request: WebhookRequest): Refined {
  switch (header) {
    case "pull_request": {
      const action = actionOf(p);
      const event = PULL_REQUEST_EVENTS[action];
      if (event === undefined) return { unsupported: `pull_request:${action}` };
      return event === null ? { ignored: header } : { event };
    }
    case "pull_request_review": {
      // GitHub follows a submitted review with an empty "edited" delivery: report the review once.
      const empty = actionOf(p) === "edited" && (!p.opt("changes").exists() || p.get("changes").keys().length === 0);
      return empty ? { ignored: header } : { event: header };
    }
    case "push": {
      const ref = p.get("ref").str();
      if (ref.startsWith("refs/heads/gh-readonly-queue/")) return { ignored: "push__merge_queue" };
      if (!ref.startsWith("refs/heads/")) return { event: "push_tags" };
      return gitBranchWanted(request, gitRefName(ref)) ? { event: "push_commits" } : { ignored: "push_commits" };
    }
    case "check_run":
      return p.get("check_run").get("status").str() === "completed" ? { event: header } : { ignored: header };
    case "team": {
      const action = actionOf(p);
      if (action === "edited") return { event: "team" };
      return IGNORED_TEAM_ACTIONS.has(action) ? { ignored: header } : { unsupported: `team:${action}` };
    }
    case "issues": {
      const action = actionOf(p);
      if (action === "labeled" || action === "unlabeled") return { event: "issue_labeled_or_unlabeled" };
      if (action === "milestoned" || action === "demilestoned") return { event: "issue_milestoned_or_demilestoned" };
      if (action === "transferred") return { event: "issues_transferred" };
      const changes = p.opt("changes");
      if (action === "opened" && changes.exists() && changes.opt("old_issue").exists()) return { event: "issues_opened_via_transfer" };
      return { event: "issues" };
    }
    case "sponsorship": {
      // GitHub names sponsorship deliveries by their action, as Zulip's event names do.
      const action = actionOf(p);
      return Object.hasOwn(repo.GITHUB_SPONSORS_BODIES, action) ? { event: action } : { unsupported: `sponsorship:${action}` };
    }
  }
  if (Object.hasOwn(BODIES, header)) return { event: header };
  if (IGNORED_EVENTS.has(header)) return { ignored: header };
  const action = p.opt("action");
  return { unsupported: `${header}:${action.exists() ? action.str() : "???"}` };
}

function topicOf(event: string, p: Payload): string {
  if (event.includes("pull_request")) {
    const pr = p.get("pull_request");
    return gitItemTopic(githubRepoName(p), "PR", pr.get("number").num(), pr.get("title").str());
  }
  if (event.startsWith("issue")) {
    const issue = p.get("issue");
    const kind = pulls.githubIsPrComment(p) ? "PR" : "issue";
    return gitItemTopic(githubRepoName(p), kind, issue.get("number").num(), issue.get("title").str());
  }
  if (event.startsWith("deployment")) {
    return `${githubRepoName(p)} / Deployment on ${p.get("deployment").get("environment").str()}`;
  }
  if (event.startsWith("discussion")) {
    const d = p.get("discussion");
    return `${githubRepoName(p)} discussion #${d.get("number").num()}: ${d.get("title").str()}`;
  }
  if (Object.hasOwn(repo.GITHUB_SPONSORS_BODIES, event)) return "sponsors";
  switch (event) {
    case "membership":
      return `${p.get("organization").get("login").str()} organization`;
    case "team":
      return `team ${p.get("team").get("name").str()}`;
    case "push_commits":
      return gitBranchTopic(githubRepoName(p), gitRefName(p.get("ref").str()));
    case "gollum":
      return gitBranchTopic(githubRepoName(p), "wiki pages");
    case "check_run":
      return `${githubRepoName(p)} / checks`;
    case "ping":
      if (!p.opt("repository").exists()) return p.get("organization").get("login").str();
  }
  return githubRepoName(p);
}

/** An edit of a comment that left its text as it was (GitHub sends those; Zulip drops them). */
function isUnchangedCommentEdit(header: string, p: Payload): boolean {
  if (!header.includes("comment") || header.includes("discussion")) return false;
  if (p.opt("action").strOr(null) !== "edited") return false;
  return p.get("changes").get("body").get("from").str() === p.get("comment").get("body").str();
}

function handleGitHub(request: WebhookRequest): WebhookResult {
  const header = gitEventHeader(request, "X-GitHub-Event");
  const p = jsonPayload(request);
  const repository = p.opt("repository");
  if (request.query["ignore_private_repositories"] === "true" && repository.exists() && repository.get("private").bool()) {
    return { kind: "ignored", eventType: header };
  }
  if (isUnchangedCommentEdit(header, p)) return { kind: "ignored", eventType: header };
  const refined = refine(header, p, request);
  if ("ignored" in refined) return { kind: "ignored", eventType: refined.ignored };
  if ("unsupported" in refined) return { kind: "unsupported", eventType: refined.unsupported };
  const { event } = refined;
  const content = BODIES[event]!({ p, includeTitle: gitIncludeTitle(request) });
  return { kind: "messages", eventType: event, messages: [{ topic: topicOf(event, p), content }] };
}

/** The GitHub integration: `/api/v1/external/github`. */
export const githubIntegration: Integration = {
  name: "github",
  displayName: "GitHub",
  handle: handleGitHub,
};
