/**
 * Azure DevOps (https://zulip.com/integrations/doc/azuredevops): Git
 * service hooks. The event is the payload's `eventType`: `git.push`
 * (topic `repo / branch`, filtered by `branches`) and
 * `git.pullrequest.created` / `.updated` / `.merged` (topic `repo / PR #N
 * title`); a `merged` delivery that is only a merge attempt (not
 * `completed` and `succeeded`) is ignored. Facts from Zulip's
 * `zerver/webhooks/azuredevops/view.py`.
 */
import { GIT_EMPTY_SHA, gitBranchTopic, gitBranchWanted, gitItemMessage, gitItemTopic, gitPushMessage, gitRefName } from "./git.js";
import { jsonPayload, type Payload, WebhookPayloadError } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

const resourceOf = (p: Payload) => p.get("resource");
const repoName = (p: Payload) => resourceOf(p).get("repository").get("name").str();
const repoUrl = (p: Payload) => resourceOf(p).get("repository").get("remoteUrl").str();

/** The first ref a push updated (Azure DevOps sends one per push to a branch). */
function firstRefUpdate(p: Payload): Payload {
  const updates = resourceOf(p).get("refUpdates").list();
  if (updates.length === 0) throw new WebhookPayloadError('payload["resource"]["refUpdates"] is empty');
  return updates[0]!;
}

function push(p: Payload): string {
  const update = firstRefUpdate(p);
  const base = repoUrl(p);
  const compareUrl = `${base}/branchCompare?baseVersion=GC${update.get("oldObjectId").str()}&targetVersion=GC${update.get("newObjectId").str()}&_a=files`;
  const listed = resourceOf(p).opt("commits");
  const commits = (listed.exists() ? listed.list() : []).map((c) => ({
    sha: c.get("commitId").str(),
    url: `${base}/commit/${c.get("commitId").str()}`,
    message: c.get("comment").str(),
    author: c.get("author").get("name").str(),
  }));
  const user = resourceOf(p).get("pushedBy").get("displayName").str();
  // A push whose new head is the empty hash deleted the branch.
  const deleted = update.get("newObjectId").str() === GIT_EMPTY_SHA;
  return gitPushMessage({ user, branch: gitRefName(update.get("name").str()), compareUrl, commits, deleted });
}

/** Created, updated or merged; Azure DevOps messages always name the title. */
function pullRequest(action: "created" | "updated" | "merged"): (p: Payload) => string {
  return (p) => {
    const pr = resourceOf(p);
    const branches = action !== "updated";
    const description = action === "created" ? pr.opt("description").strOr(null) : null;
    return gitItemMessage({
      user: pr.get("createdBy").get("displayName").str(),
      action,
      kind: "PR",
      number: pr.get("pullRequestId").num(),
      url: pr.get("_links").get("web").get("href").str(),
      title: pr.get("title").str(),
      fromBranch: branches ? gitRefName(pr.get("sourceRefName").str()) : null,
      toBranch: branches ? gitRefName(pr.get("targetRefName").str()) : null,
      body: action === "updated" ? p.get("detailedMessage").get("markdown").str() : description,
    });
  };
}

const BODIES: Record<string, (p: Payload) => string> = {
  "git.push": push,
  "git.pullrequest.created": pullRequest("created"),
  "git.pullrequest.merged": pullRequest("merged"),
  "git.pullrequest.updated": pullRequest("updated"),
};

function handleAzureDevOps(request: WebhookRequest): WebhookResult {
  const p = jsonPayload(request);
  const event = p.get("eventType").str();
  const body = BODIES[event];
  if (body === undefined) return { kind: "unsupported", eventType: event };
  if (event === "git.push" && !gitBranchWanted(request, gitRefName(firstRefUpdate(p).get("name").str()))) {
    return { kind: "ignored", eventType: event };
  }
  if (event === "git.pullrequest.merged") {
    // Azure DevOps also reports merge attempts (a conflict found, a clean trial merge): only a completed merge counts.
    const pr = resourceOf(p);
    if (pr.get("status").str() !== "completed" || pr.get("mergeStatus").str() !== "succeeded") return { kind: "ignored", eventType: event };
  }
  const topic =
    event === "git.push"
      ? gitBranchTopic(repoName(p), gitRefName(firstRefUpdate(p).get("name").str()))
      : gitItemTopic(repoName(p), "PR", resourceOf(p).get("pullRequestId").num(), resourceOf(p).get("title").str());
  return { kind: "messages", eventType: event, messages: [{ topic, content: body(p) }] };
}

/** The Azure DevOps integration: `/api/v1/external/azuredevops`. */
export const azuredevopsIntegration: Integration = {
  name: "azuredevops",
  displayName: "AzureDevOps",
  handle: handleAzureDevOps,
};
