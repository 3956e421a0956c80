/**
 * What the Git-host integrations (GitHub, GitLab, Gitea, Gogs, Bitbucket,
 * Azure DevOps) have in common: topic names, the `branches=` filter, push
 * summaries with capped commit lists, branch and tag messages, and the
 * "who did what to which pull request or issue" sentence with its quoted
 * body. The facts each message carries follow Zulip's
 * `zerver/lib/webhooks/git.py`; the wording is ours.
 */
import { WebhookPayloadError } from "./payload.js";
import type { WebhookRequest } from "./types.js";

/** At most this many commits are listed in a push summary; the rest are counted. */
export const GIT_COMMITS_SHOWN = 20;
/** At most this many committers are named in a push summary; the rest are "others". */
const COMMITTERS_NAMED = 3;

/** `repo / branch`: the topic of pushes (Zulip's TOPIC_WITH_BRANCH_TEMPLATE). */
export function gitBranchTopic(repo: string, branch: string): string {
  return `${repo} / ${branch}`;
}

/**
 * `repo / PR #12 title` (`kind` "PR", "issue", "MR", "Issue", ...): the topic
 * of an issue or a pull/merge request (Zulip's TOPIC_WITH_PR_OR_ISSUE_INFO_TEMPLATE).
 */
export function gitItemTopic(repo: string, kind: string, id: number | string, title: string): string {
  return `${repo} / ${kind} #${id} ${title}`;
}

/** `repo / tag title`: the topic of a release (Zulip's TOPIC_WITH_RELEASE_TEMPLATE). */
export function gitReleaseTopic(repo: string, tag: string, title: string): string {
  return `${repo} / ${tag} ${title}`;
}

/**
 * Whether a push to `branch` passes the request's `branches` filter (a
 * comma-separated list of branch names; absent means every branch), as
 * Zulip's `is_branch_name_notifiable`.
 */
export function gitBranchWanted(request: WebhookRequest, branch: string): boolean {
  const filter = request.query["branches"];
  if (filter === undefined) return true;
  return filter.split(",").some((name) => name.trim() === branch);
}

/**
 * Whether messages name the title of the issue or pull request: only when
 * the sender fixed the topic with `topic=`, because otherwise the topic
 * already carries it (Zulip's `include_title`).
 */
export function gitIncludeTitle(request: WebhookRequest): boolean {
  return request.query["topic"] !== undefined;
}

/** `refs/heads/main` → `main`; `refs/tags/v1` → `v1`; any other text unchanged. */
export function gitRefName(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, "");
}

/** The 7-character abbreviation of a commit hash. */
export function gitShortSha(sha: string): string {
  return sha.slice(0, 7);
}

/** The all-zero hash senders use for "no commit" (a created or deleted ref). */
export const GIT_EMPTY_SHA = "0000000000000000000000000000000000000000";

/**
 * `text` as a Zulip quote block, fenced with more backticks than any run
 * inside it so that a body holding its own code fences stays inside.
 */
export function gitQuote(text: string): string {
  const longestRun = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longestRun + 1);
  return `${fence}quote\n${text.trim()}\n${fence}`;
}

/** One commit of a push as the summary lists it. */
export interface GitCommit {
  /** Hash (abbreviated in the list). */
  sha: string;
  /** Link to the commit, or null when the sender gives none. */
  url: string | null;
  /** Full message: only its first line is listed. */
  message: string;
  /** Author's name or login, counted in "Commits by ...". */
  author: string;
}

/** A push, as {@link gitPushMessage} summarises it. */
export interface GitPush {
  user: string;
  branch: string;
  /** Link to the comparison of before and after, or null. */
  compareUrl: string | null;
  commits: GitCommit[];
  /** The branch was deleted by this push. */
  deleted?: boolean;
  /** The push rewrote history. */
  forced?: boolean;
  /** The sender sent fewer commits than the push holds (the count of the rest is unknown). */
  truncated?: boolean;
  /** The number of commits pushed when it exceeds `commits.length` (senders that cap their lists). */
  total?: number;
}

/**
 * The message for a push (Zulip's `get_push_commits_event_message`): a
 * deleted branch, a branch pushed without new commits, or the commits,
 * who wrote them (the three most prolific by name, then "others") and a
 * list of at most {@link GIT_COMMITS_SHOWN} first lines.
 */
export function gitPushMessage(push: GitPush): string {
  const verb = push.forced ? "force pushed" : "pushed";
  const linked = (text: string) => (push.compareUrl ? `[${text}](${push.compareUrl})` : text);
  if (push.commits.length === 0) {
    if (push.deleted) return `${push.user} ${linked("deleted")} the branch ${push.branch}.`;
    return `${push.user} ${linked(verb)} the branch ${push.branch}.`;
  }
  const total = Math.max(push.total ?? 0, push.commits.length);
  const count = `${total} commit${total === 1 ? "" : "s"}`;
  let head = `${push.user} ${linked(verb)} ${count} to branch ${push.branch}.`;
  const committers = gitCommitters(push.commits);
  if (!(committers.length === 1 && committers[0]![0] === push.user)) {
    head += ` Commits by ${englishList(committers.map(([name, n]) => `${name} (${n})`))}.`;
  }
  return `${head}\n\n${gitCommitList(push.commits, push.truncated ?? false, total)}`;
}

/**
 * The bullet list of commits: first line of each message and its linked
 * short hash, at most {@link GIT_COMMITS_SHOWN}, then how many more.
 */
export function gitCommitList(commits: GitCommit[], truncated = false, total = commits.length): string {
  const rows = commits.slice(0, GIT_COMMITS_SHOWN).map((commit) => {
    const sha = gitShortSha(commit.sha);
    const firstLine = commit.message.split("\n", 1)[0]!.trim();
    return `* ${firstLine} (${commit.url ? `[${sha}](${commit.url})` : sha})`;
  });
  const hidden = total - Math.min(commits.length, GIT_COMMITS_SHOWN);
  if (hidden > 0) rows.push(`[and ${hidden} more commit${hidden === 1 ? "" : "s"}]`);
  else if (truncated) rows.push("[and more commits]");
  return rows.join("\n");
}

/** Committers by number of commits (ties by name), the fourth and later folded into "others". */
function gitCommitters(commits: GitCommit[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(commit.author, (counts.get(commit.author) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (sorted.length <= COMMITTERS_NAMED) return sorted;
  const others = sorted.slice(COMMITTERS_NAMED).reduce((sum, [, n]) => sum + n, 0);
  return [...sorted.slice(0, COMMITTERS_NAMED), ["others", others]];
}

/** `a`, `a and b`, `a, b and c`. */
export function englishList(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "user force pushed to branch b. Head is now sha." (Zulip's force-push message). */
export function gitForcePushMessage(user: string, url: string, branch: string, head: string): string {
  return `${user} [force pushed](${url}) to branch ${branch}. Head is now ${head}.`;
}

/** "user created [b](url) branch." (Zulip's create-branch message; the bare name without a link). */
export function gitBranchCreatedMessage(user: string, branch: string, url: string | null): string {
  return `${user} created ${url ? `[${branch}](${url})` : branch} branch.`;
}

/** "user deleted branch b." (Zulip's remove-branch message). */
export function gitBranchDeletedMessage(user: string, branch: string): string {
  return `${user} deleted branch ${branch}.`;
}

/** "user pushed tag [v1](url)." / "user removed tag v1." (Zulip's push-tag message). */
export function gitTagMessage(user: string, tag: string, url: string | null, action = "pushed"): string {
  const name = url ? `[${tag}](${url})` : tag;
  return withFinalStop(`${user} ${action} tag ${name}`, tag);
}

/** "user published release [name](url) for tag t." (Zulip's release message). */
export function gitReleaseMessage(user: string, action: string, tag: string, name: string, url: string): string {
  return `${user} ${action} release [${name}](${url}) for tag ${tag}.`;
}

/** "user commented on [abc1234](url):" and the comment quoted (Zulip's commit-comment message). */
export function gitCommitCommentMessage(user: string, action: string, url: string, sha: string, body: string | null): string {
  const head = `${user} ${action} on [${gitShortSha(sha)}](${url})`;
  return body ? `${head}:\n\n${gitQuote(body)}` : `${head}.`;
}

/** The setup message senders trigger with a test delivery ("ping"). */
export function gitSetupMessage(integration: string, user: string | null): string {
  return `${integration} webhook has been successfully configured${user ? ` by ${user}` : ""}.`;
}

/** An issue, pull request or merge request event, as {@link gitItemMessage} words it. */
export interface GitItemEvent {
  user: string;
  /** Past-tense verb phrase: "opened", "merged", "[commented](url) on", ... */
  action: string;
  /** "PR", "Issue", "MR", "issue", "PR review", ... */
  kind: string;
  url: string;
  number?: number | string | null;
  /** Given only when messages name titles ({@link gitIncludeTitle}). */
  title?: string | null;
  assignees?: string[];
  /** Source and target branches, e.g. of an opened pull request. */
  fromBranch?: string | null;
  toBranch?: string | null;
  /** The description or comment, quoted. */
  body?: string | null;
}

/**
 * "user opened [PR #12 title](url) from `x` to `y` (assigned to a and b):"
 * and the body quoted (Zulip's `get_pull_request_event_message` and
 * `get_issue_event_message`). A sentence ending in the title keeps the
 * title's own final punctuation.
 */
export function gitItemMessage(event: GitItemEvent): string {
  const id = event.number !== undefined && event.number !== null ? ` #${event.number}` : "";
  const title = event.title ? ` ${event.title}` : "";
  let text = `${event.user} ${event.action} [${event.kind}${id}${title}](${event.url})`;
  let endsWithTitle = title !== "";
  if (event.fromBranch && event.toBranch) {
    text += ` from \`${event.fromBranch}\` to \`${event.toBranch}\``;
    endsWithTitle = false;
  }
  if (event.assignees && event.assignees.length > 0) {
    text += ` (assigned to ${englishList(event.assignees)})`;
    endsWithTitle = false;
  }
  const body = event.body?.trim() ? event.body : null;
  if (body) return `${text}:\n\n${gitQuote(body)}`;
  return endsWithTitle ? withFinalStop(text, event.title!) : `${text}.`;
}

/** "user added the bug label to [Issue #3](url)." (Zulip's labeled/unlabeled message). */
export function gitLabelMessage(user: string, added: boolean, label: string, kind: string, number: number, url: string, title: string | null): string {
  const item = `[${kind} #${number}${title ? ` ${title}` : ""}](${url})`;
  return added ? `${user} added the ${label} label to ${item}.` : `${user} removed the ${label} label from ${item}.`;
}

/** "user added milestone [m](url) to [issue #3](url)." (Zulip's milestoned/demilestoned message). */
export function gitMilestoneMessage(user: string, added: boolean, milestone: string, milestoneUrl: string, kind: string, number: number, url: string, title: string | null): string {
  const item = `[${kind} #${number}${title ? ` ${title}` : ""}](${url})`;
  const stone = `[${milestone}](${milestoneUrl})`;
  return added ? `${user} added milestone ${stone} to ${item}.` : `${user} removed milestone ${stone} from ${item}.`;
}

/** `text` with a full stop, unless `lastWord` (which it ends with) already ends in punctuation. */
export function withFinalStop(text: string, lastWord: string): string {
  return /[!-/:-@[-`{-~]$/.test(lastWord) ? text : `${text}.`;
}

/**
 * The event header a Git host names its deliveries with (lower-cased
 * `name`); a request without it is a 400 naming the header, as Zulip's
 * `validate_extract_webhook_http_header`.
 */
export function gitEventHeader(request: WebhookRequest, name: string): string {
  const value = request.headers[name.toLowerCase()];
  if (value === undefined || value === "") throw new WebhookPayloadError(`Missing the HTTP event header '${name}'`);
  return value;
}
