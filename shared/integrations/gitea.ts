/**
 * Gitea (https://zulip.com/integrations/doc/gitea): a fork of Gogs posting
 * the same deliveries under `X-Gitea-Event`, handled by the Gogs code
 * (`gogs.ts`) but for pull requests, whose payloads name branches under
 * `head`/`base` and carry an assignee. Facts from Zulip's
 * `zerver/webhooks/gitea/view.py`.
 */
import { gitItemMessage } from "./git.js";
import { gogsFamilyHandler } from "./gogs.js";
import type { Payload } from "./payload.js";
import type { Integration } from "./types.js";

/** A Gitea pull request: merged (by whom) or its author's action, with branches (unless edited) and assignee. */
function giteaPullRequest(p: Payload, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  const merged = pr.get("merged").bool();
  const action = merged ? "merged" : p.get("action").str();
  const branch = (side: "head" | "base") => (action !== "edited" && pr.opt(side).exists() ? pr.get(side).get("ref").str() : null);
  const assignee = pr.opt("assignee");
  return gitItemMessage({
    user: pr.get(merged ? "merged_by" : "user").get("username").str(),
    action,
    kind: "PR",
    number: pr.get("number").num(),
    url: pr.get("html_url").str(),
    title: includeTitle ? pr.get("title").str() : null,
    assignees: assignee.exists() ? [assignee.get("login").str()] : [],
    fromBranch: branch("head"),
    toBranch: branch("base"),
  });
}

/** The Gitea integration: `/api/v1/external/gitea`. */
export const giteaIntegration: Integration = {
  name: "gitea",
  displayName: "Gitea",
  handle: gogsFamilyHandler("X-Gitea-Event", giteaPullRequest),
};
