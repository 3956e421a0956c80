/**
 * GitHub pull request, issue, review, comment and discussion messages
 * (the bodies of Zulip's `zerver/webhooks/github/view.py` for those
 * events; wording ours).
 */
import { gitItemMessage, gitLabelMessage, gitMilestoneMessage, gitQuote, withFinalStop } from "../git.js";
import type { Payload } from "../payload.js";
import { type GitHubContext, githubSender, githubSenderLink } from "./context.js";

function titleOf(ctx: GitHubContext, item: Payload): string | null {
  return ctx.includeTitle ? item.get("title").str() : null;
}

/** A pull request opened, reopened, edited or updated with new commits; the description is quoted when new or changed. */
export function githubPrOpenedOrUpdated(ctx: GitHubContext): string {
  const { p } = ctx;
  const pr = p.get("pull_request");
  const raw = p.get("action").str();
  const action = raw === "synchronize" ? "updated" : raw;
  const bodyChanged = p.opt("changes").exists() && p.get("changes").opt("body").exists();
  const showsBranches = action === "opened" || action === "reopened";
  const assignee = pr.opt("assignee").exists() ? pr.get("assignee").get("login").str() : null;
  return gitItemMessage({
    user: githubSender(p),
    action,
    kind: "PR",
    number: pr.get("number").num(),
    url: pr.get("html_url").str(),
    title: titleOf(ctx, pr),
    assignees: assignee ? [assignee] : [],
    fromBranch: showsBranches ? pr.get("head").get("label").str() : null,
    toBranch: showsBranches ? pr.get("base").get("label").str() : null,
    body: action === "opened" || bodyChanged ? pr.get("body").strOr(null) : null,
  });
}

/** A pull request closed: merged, or closed without merge. */
export function githubPrClosed(ctx: GitHubContext): string {
  const pr = ctx.p.get("pull_request");
  return gitItemMessage({
    user: githubSender(ctx.p),
    action: pr.get("merged").bool() ? "merged" : "closed without merge",
    kind: "PR",
    number: pr.get("number").num(),
    url: pr.get("html_url").str(),
    title: titleOf(ctx, pr),
  });
}

/** Someone assigned to or unassigned from a pull request. */
export function githubPrAssignment(ctx: GitHubContext): string {
  const { p } = ctx;
  const pr = p.get("pull_request");
  // As Zulip's messages: an assignment names the assignee, an unassignment only the pull request.
  const text =
    p.get("action").str() === "unassigned"
      ? `${githubSender(p)} unassigned ${prLink(ctx, pr)}`
      : `${githubSender(p)} assigned ${p.get("assignee").get("login").str()} to ${prLink(ctx, pr)}`;
  return ctx.includeTitle ? withFinalStop(text, pr.get("title").str()) : `${text}.`;
}

function prLink(ctx: GitHubContext, pr: Payload): string {
  const title = ctx.includeTitle ? ` ${pr.get("title").str()}` : "";
  return `[PR #${pr.get("number").num()}${title}](${pr.get("html_url").str()})`;
}

/** A pull request locked (with GitHub's reason) or unlocked. */
export function githubPrLock(ctx: GitHubContext): string {
  const { p } = ctx;
  const pr = p.get("pull_request");
  if (p.get("action").str() === "unlocked") return `${githubSender(p)} has unlocked ${prLink(ctx, pr)}.`;
  const reason = pr.opt("active_lock_reason").strOr(null);
  return `${githubSender(p)} has locked ${prLink(ctx, pr)}${reason ? ` as ${reason}` : ""} and limited conversation to collaborators.`;
}

/** Auto-merge switched on or off for a pull request. */
export function githubPrAutoMerge(ctx: GitHubContext): string {
  const { p } = ctx;
  const state = p.get("action").str() === "auto_merge_enabled" ? "enabled" : "disabled";
  return `${githubSender(p)} has ${state} auto merge for ${prLink(ctx, p.get("pull_request"))}.`;
}

/** A draft pull request marked ready for review. */
export function githubPrReadyForReview(ctx: GitHubContext): string {
  return `**${githubSender(ctx.p)}** has marked ${prLink(ctx, ctx.p.get("pull_request"))} as ready for review.`;
}

/** A review requested from a user or a team. */
export function githubPrReviewRequested(ctx: GitHubContext): string {
  const { p } = ctx;
  const reviewer = p.opt("requested_reviewer").exists()
    ? `[${p.get("requested_reviewer").get("login").str()}](${p.get("requested_reviewer").get("html_url").str()})`
    : `[${p.get("requested_team").get("name").str()}](${p.get("requested_team").get("html_url").str()})`;
  return `**${githubSender(p)}** requested ${reviewer} for a review on ${prLink(ctx, p.get("pull_request"))}.`;
}

/** A review submitted (or edited), its body quoted. */
export function githubPrReview(ctx: GitHubContext): string {
  const { p } = ctx;
  const pr = p.get("pull_request");
  const review = p.get("review");
  return gitItemMessage({
    user: githubSender(p),
    action: p.get("action").str(),
    kind: "PR review",
    url: review.get("html_url").str(),
    title: ctx.includeTitle ? `for #${pr.get("number").num()} ${pr.get("title").str()}` : null,
    body: review.get("body").strOr(null),
  });
}

/** A comment on a line of a pull request's diff; the comment is quoted when created. */
export function githubPrReviewComment(ctx: GitHubContext): string {
  const { p } = ctx;
  const pr = p.get("pull_request");
  const action = p.get("action").str();
  return gitItemMessage({
    user: githubSender(p),
    action,
    kind: "PR review comment",
    url: p.get("comment").get("html_url").str(),
    title: ctx.includeTitle ? `on #${pr.get("number").num()} ${pr.get("title").str()}` : null,
    body: action === "created" ? p.get("comment").get("body").str() : null,
  });
}

/** Whether an `issue_comment` is about a pull request (GitHub treats pull requests as issues). */
export function githubIsPrComment(p: Payload): boolean {
  return p.get("issue").opt("pull_request").exists();
}

/** "[commented](url) on" or "edited a [comment](url) on". */
function commentAction(p: Payload): string {
  const action = p.get("action").str();
  const url = p.get("comment").get("html_url").str();
  return action === "created" ? `[commented](${url}) on` : `${action} a [comment](${url}) on`;
}

/** A comment on an issue or pull request conversation, quoted. */
export function githubIssueComment(ctx: GitHubContext): string {
  const { p } = ctx;
  const issue = p.get("issue");
  return gitItemMessage({
    user: githubSender(p),
    action: commentAction(p),
    kind: githubIsPrComment(p) ? "PR" : "issue",
    number: issue.get("number").num(),
    url: issue.get("html_url").str(),
    title: titleOf(ctx, issue),
    body: p.get("comment").get("body").str(),
  });
}

/** An issue opened, closed, reopened, edited, assigned, ...; the body quoted except for (un)assignments. */
export function githubIssue(ctx: GitHubContext): string {
  const { p } = ctx;
  const issue = p.get("issue");
  const action = p.get("action").str();
  const assignment = action === "assigned" || action === "unassigned";
  if (assignment) {
    const assignee = p.get("assignee").get("login").str();
    const title = ctx.includeTitle ? ` ${issue.get("title").str()}` : "";
    const link = `[issue #${issue.get("number").num()}${title}](${issue.get("html_url").str()})`;
    const text = `${githubSender(p)} ${action} ${assignee} ${action === "assigned" ? "to" : "from"} ${link}`;
    return ctx.includeTitle ? withFinalStop(text, issue.get("title").str()) : `${text}.`;
  }
  return gitItemMessage({
    user: githubSender(p),
    action,
    kind: "issue",
    number: issue.get("number").num(),
    url: issue.get("html_url").str(),
    title: titleOf(ctx, issue),
    body: issue.get("body").strOr(null),
  });
}

/** A label added to or removed from an issue. */
export function githubIssueLabel(ctx: GitHubContext): string {
  const { p } = ctx;
  const issue = p.get("issue");
  return gitLabelMessage(
    githubSenderLink(p),
    p.get("action").str() === "labeled",
    p.get("label").get("name").str(),
    "Issue",
    issue.get("number").num(),
    issue.get("html_url").str(),
    titleOf(ctx, issue),
  );
}

/** An issue added to or removed from a milestone. */
export function githubIssueMilestone(ctx: GitHubContext): string {
  const { p } = ctx;
  const issue = p.get("issue");
  const milestone = p.get("milestone");
  return gitMilestoneMessage(
    githubSenderLink(p),
    p.get("action").str() === "milestoned",
    milestone.get("title").str(),
    milestone.get("html_url").str(),
    "issue",
    issue.get("number").num(),
    issue.get("html_url").str(),
    titleOf(ctx, issue),
  );
}

/** An issue moved to another repository (seen from the old one). */
export function githubIssueTransferred(ctx: GitHubContext): string {
  const { p } = ctx;
  const issue = p.get("issue");
  const changes = p.get("changes");
  const newIssue = changes.get("new_issue");
  return `${githubSender(p)} transferred [issue #${issue.get("number").num()} ${issue.get("title").str()}](${issue.get("html_url").str()}) to [${changes.get("new_repository").get("full_name").str()}#${newIssue.get("number").num()}](${newIssue.get("html_url").str()}).`;
}

/** An issue that arrived from another repository (seen from the new one). */
export function githubIssueOpenedByTransfer(ctx: GitHubContext): string {
  const { p } = ctx;
  const issue = p.get("issue");
  const changes = p.get("changes");
  const oldIssue = changes.get("old_issue");
  return `[Issue #${issue.get("number").num()} ${issue.get("title").str()}](${issue.get("html_url").str()}) was transferred from [${changes.get("old_repository").get("full_name").str()}#${oldIssue.get("number").num()}](${oldIssue.get("html_url").str()}).`;
}

/** A discussion started: its category, title and body. */
export function githubDiscussion(ctx: GitHubContext): string {
  const d = ctx.p.get("discussion");
  const quoted = `### ${d.get("title").str()}\n${d.get("body").strOr("")}`;
  return `${githubSender(ctx.p)} created [discussion #${d.get("number").num()}](${d.get("html_url").str()}) in ${d.get("category").get("name").str()}:\n\n${gitQuote(quoted)}`;
}

/** A comment on a discussion, quoted. */
export function githubDiscussionComment(ctx: GitHubContext): string {
  const { p } = ctx;
  const d = p.get("discussion");
  return gitItemMessage({
    user: githubSender(p),
    action: commentAction(p),
    kind: "discussion",
    number: d.get("number").num(),
    url: d.get("html_url").str(),
    title: titleOf(ctx, d),
    body: p.get("comment").get("body").str(),
  });
}
