/**
 * GitHub repository, organization and sponsorship messages: pushes, tags,
 * refs, releases, builds, checks, membership, sponsors (the bodies of
 * Zulip's `zerver/webhooks/github/view.py` for those events; wording ours).
 */
import {
  gitCommitCommentMessage,
  gitPushMessage,
  gitQuote,
  gitRefName,
  gitReleaseMessage,
  gitSetupMessage,
  gitShortSha,
  gitTagMessage,
} from "../git.js";
import type { Payload } from "../payload.js";
import { type GitHubContext, githubRepoLink, githubRepoName, githubSender } from "./context.js";

/** Commits pushed to a branch, or a branch deleted or pushed without new commits. */
export function githubPushCommits({ p }: GitHubContext): string {
  const commits = p.get("commits").list().map((commit) => {
    const author = commit.get("author");
    return {
      sha: commit.get("id").str(),
      url: commit.get("url").str(),
      message: commit.get("message").str(),
      author: author.opt("username").strOr(null) ?? author.get("name").str(),
    };
  });
  return gitPushMessage({
    user: githubSender(p),
    branch: gitRefName(p.get("ref").str()),
    compareUrl: p.get("compare").str(),
    commits,
    deleted: p.get("deleted").bool(),
    forced: p.get("forced").bool(),
  });
}

/** A tag pushed or removed. */
export function githubPushTags({ p }: GitHubContext): string {
  return gitTagMessage(githubSender(p), gitRefName(p.get("ref").str()), null, p.get("created").bool() ? "pushed" : "removed");
}

/** A branch or tag created (`create`) or deleted (`delete`). */
export function githubRefCreatedOrDeleted(verb: "created" | "deleted"): (ctx: GitHubContext) => string {
  return ({ p }) => `${githubSender(p)} ${verb} ${p.get("ref_type").str()} ${p.get("ref").str()}.`;
}

/** A comment on a commit, quoted. */
export function githubCommitComment({ p }: GitHubContext): string {
  const comment = p.get("comment");
  const url = comment.get("html_url").str();
  return gitCommitCommentMessage(githubSender(p), `[commented](${url})`, url.split("#", 1)[0]!, comment.get("commit_id").str(), comment.get("body").str());
}

/** A deployment created (`deployment`): who started it; the topic names the environment. */
export function githubDeployment({ p }: GitHubContext): string {
  return `${githubSender(p)} created new deployment.`;
}

/** A deployment's state changed (`deployment_status`). */
export function githubDeploymentStatus({ p }: GitHubContext): string {
  return `Deployment changed status to ${p.get("deployment_status").get("state").str()}.`;
}

/** The repository forked: a link to the fork. */
export function githubFork({ p }: GitHubContext): string {
  const forkee = p.get("forkee");
  return `${githubSender(p)} forked [${forkee.get("name").str()}](${forkee.get("html_url").str()}).`;
}

/** Wiki pages created or edited: one bullet per page. */
export function githubWikiPages({ p }: GitHubContext): string {
  const rows = p.get("pages").list().map((page) => `* ${page.get("action").str()} [${page.get("title").str()}](${page.get("html_url").str()})`);
  return `${githubSender(p)}:\n${rows.join("\n")}`;
}

/** A collaborator added to a repository. */
export function githubMember({ p }: GitHubContext): string {
  const member = p.get("member");
  const repo = `[${githubRepoName(p)}](${p.get("repository").get("html_url").str()})`;
  return `${githubSender(p)} ${p.get("action").str()} [${member.get("login").str()}](${member.get("html_url").str()}) to ${repo}.`;
}

/** A user added to or removed from an organization's team. */
export function githubMembership({ p }: GitHubContext): string {
  const action = p.get("action").str();
  const member = p.get("member");
  const who = `[${member.get("login").str()}](${member.get("html_url").str()})`;
  return `${githubSender(p)} ${action} ${who} ${action === "removed" ? "from" : "to"} the ${p.get("team").get("name").str()} team.`;
}

/** A private repository made public. */
export function githubPublic({ p }: GitHubContext): string {
  return `${githubSender(p)} made the repository ${githubRepoLink(p)} public.`;
}

/** Someone started watching (GitHub's "watch" is a star). */
export function githubWatch({ p }: GitHubContext): string {
  return `${githubSender(p)} starred the repository ${githubRepoLink(p)}.`;
}

/** A star added or removed (`star` created/deleted). */
export function githubStar({ p }: GitHubContext): string {
  const user = `[${githubSender(p)}](${p.get("sender").get("html_url").str()})`;
  return `${user} ${p.get("action").str() === "created" ? "starred" : "unstarred"} the repository ${githubRepoLink(p)}.`;
}

/** A repository created, deleted, archived, renamed, ... (`repository`). */
export function githubRepository({ p }: GitHubContext): string {
  return `${githubSender(p)} ${p.get("action").str()} the repository ${githubRepoLink(p)}.`;
}

/** A repository added to a team (`team_add`). */
export function githubTeamAdd({ p }: GitHubContext): string {
  return `The repository ${githubRepoLink(p)} was added to the team ${p.get("team").get("name").str()}.`;
}

/** A team edited: its description, name or visibility; other changes are named by key. */
export function githubTeamEdited({ p }: GitHubContext): string {
  const changes = p.get("changes");
  const team = p.get("team");
  if (changes.opt("description").exists()) {
    return `**${githubSender(p)}** changed the team description to:\n\n${gitQuote(team.get("description").str())}`;
  }
  if (changes.opt("name").exists()) {
    return `Team \`${changes.get("name").get("from").str()}\` was renamed to \`${team.get("name").str()}\`.`;
  }
  if (changes.opt("privacy").exists()) return `Team visibility changed to \`${team.get("privacy").str()}\``;
  return `Team has changes to \`${changes.keys().sort().join("/")}\` data.`;
}

/** A release published, created, edited, ...; named by its name or, without one, its tag. */
export function githubRelease({ p }: GitHubContext): string {
  const release = p.get("release");
  const tag = release.get("tag_name").str();
  const name = release.opt("name").strOr("") || tag;
  return gitReleaseMessage(githubSender(p), p.get("action").str(), tag, name, release.get("html_url").str());
}

const PAGE_BUILD_STATES: Record<string, string> = {
  null: "has yet to be built",
  building: "is being built",
  errored: "has failed",
  built: "has finished building",
};

/**
 * A GitHub Pages build's state; a failure quotes GitHub's error, in the
 * exact form of Zulip's message (a space before the quote, a full stop
 * after its fence).
 */
export function githubPageBuild({ p }: GitHubContext): string {
  const build = p.get("build");
  const status = build.get("status").str();
  const state = PAGE_BUILD_STATES[status] ?? `is ${status}`;
  const error = build.get("error").get("message").strOr(null);
  const head = `GitHub Pages build, triggered by ${build.get("pusher").get("login").str()}, ${state}`;
  return error ? `${head}: \n~~~ quote\n${error}\n~~~.` : `${head}.`;
}

/** A commit status (CI) changed; linked to the status's target when it has one. */
export function githubStatus({ p }: GitHubContext): string {
  const state = p.get("state").str();
  const target = p.opt("target_url").strOr(null);
  const linked = target ? `[${state}](${target})` : state;
  return `[${gitShortSha(p.get("sha").str())}](${p.get("commit").get("html_url").str()}) changed its status to ${linked}.`;
}

/** A completed check run and its conclusion. */
export function githubCheckRun({ p }: GitHubContext): string {
  const run = p.get("check_run");
  const sha = run.get("head_sha").str();
  const commitUrl = `${p.get("repository").get("html_url").str()}/commit/${sha}`;
  return `Check [${run.get("name").str()}](${run.get("html_url").str()}) ${run.get("status").str()} (${run.get("conclusion").str()}). ([${gitShortSha(sha)}](${commitUrl}))`;
}

/** The test delivery GitHub sends when a webhook is set up (`ping`). */
export function githubPing({ p }: GitHubContext): string {
  return gitSetupMessage("GitHub", githubSender(p));
}

function tierName(p: Payload): string {
  return p.get("sponsorship").get("tier").get("name").str();
}

function priorTierName(p: Payload): string {
  return p.get("changes").get("tier").get("from").get("name").str();
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** `2020-01-05T00:00:00+00:00` → `January 05, 2020` (the date part as sent, as Zulip shows it). */
function effectiveDate(p: Payload): string {
  const text = p.get("effective_date").str();
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${month} ${m[3]}, ${m[1]}` : text;
}

/** GitHub Sponsors events, by the sponsorship's action (Zulip's event names for them). */
export const GITHUB_SPONSORS_BODIES: Record<string, (ctx: GitHubContext) => string> = {
  cancelled: ({ p }) => `${githubSender(p)} cancelled their ${tierName(p)} subscription.`,
  created: ({ p }) => `${githubSender(p)} subscribed for ${tierName(p)}.`,
  edited: ({ p }) =>
    `${githubSender(p)} changed who can see their sponsorship from ${p.get("changes").get("privacy_level").get("from").str()} to ${p.get("sponsorship").get("privacy_level").str()}.`,
  pending_cancellation: ({ p }) => `${githubSender(p)}'s ${tierName(p)} subscription will be cancelled on ${effectiveDate(p)}.`,
  pending_tier_change: ({ p }) =>
    `${githubSender(p)}'s subscription will change from ${priorTierName(p)} to ${tierName(p)} on ${effectiveDate(p)}.`,
  tier_changed: ({ p }) => `${githubSender(p)} changed their subscription from ${priorTierName(p)} to ${tierName(p)}.`,
};
